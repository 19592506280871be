// The Evaluation screen's action for its scoring job: the job as an experiment with one variant (its table, question
// set and input mapping), set up on the Experiments screen. The app shell hands it to the Evaluation screen, which
// imports no feature built on it.
import {useState} from "react";
import {openScoringJobAsExperiment} from "./fromStudio.ts";

export function OpenJobAsExperiment() {
    const [note, setNote] = useState<string | null>(null);
    const open = async () => {
        const opened = await openScoringJobAsExperiment();
        setNote(opened.ok ? null : opened.text);
    };
    return <>
        <button type="button" className="btn btn-sm push-right" data-testid="evaluation-open-experiment" title="Its table, question set and input mapping as a one-variant experiment"
            onClick={() => void open()}>Open as experiment</button>
        {note && <span className="field-error" role="alert">{note}</span>}
    </>;
}
