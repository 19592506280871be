import {Icon} from "../../components/Icon.tsx";
import {useCompareStore} from "../state/useCompareStore.ts";
import {CompareResults} from "./CompareResults.tsx";
import {CompareSideConfig} from "./CompareSideConfig.tsx";
import {runCompare, stopCompare} from "./runCompare.ts";
import {VariantEditor} from "./VariantEditor.tsx";

/** Two variants of a question set, or two connections, asked about the builder's current input side by side. */
export function ComparePanel() {
    const running = useCompareStore((state) => state.running);
    const results = useCompareStore((state) => state.results);
    return (
        <div className="compare-panel" data-testid="compare-panel">
            <section className="card">
                <div className="card-title-row">
                    <h3>Compare</h3>
                    <span className="muted small">Both sides get the input of the Build tab (text, JSON state or table row, and its images).</span>
                </div>
                <div className="compare-configs">
                    <CompareSideConfig which="a" />
                    <CompareSideConfig which="b" />
                </div>
                <div className="run-bar">
                    {running
                        ? <button type="button" className="btn btn-danger" onClick={stopCompare}><Icon name="stop" /> Stop</button>
                        : <button type="button" className="btn btn-primary" data-testid="compare-run" onClick={() => void runCompare()}><Icon name="play" /> Run both</button>}
                    {running && <span className="status-badge status-running">running</span>}
                </div>
            </section>
            <VariantEditor />
            {results && <CompareResults a={results.a} b={results.b} />}
        </div>
    );
}
