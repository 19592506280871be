import {useMemo} from "react";
import {histogramBins} from "../model/histogramBins.ts";
import {useScoringStore, type ScoringJob} from "../state/useScoringStore.ts";
import {answersOf} from "./jobCaches.ts";
import {QuestionHistogram} from "./QuestionHistogram.tsx";

/** One histogram per question of the job, over the rows scored so far. */
export function QuestionHistograms({job}: {job: ScoringJob}) {
    const version = useScoringStore((state) => state.resultsVersion);
    const histograms = useMemo(() => {
        const rows = Array.from({length: job.results.length}, (_, rowIndex) => answersOf(job, rowIndex));
        const answered = rows.filter((answers) => answers !== null).length;
        return job.infos.map((info, index) => ({info, answered, bins: histogramBins(info, rows.map((answers) => answers?.[index] ?? null))}));
    }, [job, version]);
    return (
        <div className="histograms">
            {histograms.map(({info, bins, answered}) => <QuestionHistogram key={info.name} name={info.name} kind={info.kind} bins={bins} answered={answered} />)}
        </div>
    );
}
