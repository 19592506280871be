// Exports of the open experiment: the HTML report (one self-contained file), the per-row results as CSV or XLSX, the
// experiment file that `svc-studio eval` runs, and a promptfoo config of it.
import {useState} from "react";
import type {ExperimentSummary} from "../../../../client/experiments/types.ts";
import {downloadFile} from "../../ui/browser.ts";
import type {OpenExperiment} from "./experimentStore.ts";
import {exportCsv, exportXlsx, experimentFileText, reportHtml, resultsFileText} from "./exports.ts";
import {useGatewayState} from "../../gateway/gatewayState.ts";
import {engineAddress} from "../../gateway/engineAddress.ts";
import {promptfooConfigText} from "./promptfooFiles.ts";

function baseName(open: OpenExperiment): string {
    return (open.spec.name.replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "") || "experiment").slice(0, 80);
}

export function ExportsBar({open, summary}: {open: OpenExperiment, summary: ExperimentSummary | null}) {
    const [working, setWorking] = useState<string | null>(null);
    const [error, setError] = useState<string | null>(null);
    const {data: gateway} = useGatewayState();
    const base = baseName(open);
    const run = (what: string, task: () => Promise<void> | void) => async () => {
        setWorking(what);
        setError(null);
        try {
            await task();
        } catch (reason) {
            setError(`The ${what} could not be made: ${(reason as Error).message}`);
        } finally {
            setWorking(null);
        }
    };
    return (
        <div className="exp-exports row-gap" data-testid="exp-exports">
            <span className="muted small">Export</span>
            <button type="button" className="btn btn-sm" disabled={summary === null || working !== null} data-testid="exp-export-report"
                title="One HTML file with the matrix, verdicts, charts and disagreements: no scripts, no links out"
                onClick={run("report", () => downloadFile(`${base}.report.html`, reportHtml(open, summary!), "text/html"))}>HTML report</button>
            <button type="button" className="btn btn-sm" disabled={working !== null} data-testid="exp-export-csv"
                onClick={run("CSV", () => downloadFile(`${base}.rows.csv`, exportCsv(open), "text/csv"))}>Rows as CSV</button>
            <button type="button" className="btn btn-sm" disabled={working !== null} data-testid="exp-export-xlsx"
                onClick={run("XLSX", async () => downloadFile(`${base}.rows.xlsx`, await exportXlsx(open), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))}>
                {working === "XLSX" ? "Writing XLSX…" : "Rows as XLSX"}
            </button>
            <button type="button" className="btn btn-sm" disabled={working !== null} data-testid="exp-export-file" title="What svc-studio eval runs: the experiment with its dataset inline"
                onClick={run("experiment file", () => downloadFile(`${base}.svc-experiment.json`, experimentFileText(open)))}>Experiment file</button>
            <button type="button" className="btn btn-sm" disabled={working !== null} data-testid="exp-export-results" title="The experiment and every cell, as svc-studio eval --results writes them: History → Open a file reads it back"
                onClick={run("results file", () => downloadFile(`${base}.svc-results.json`, resultsFileText(open)))}>Results file</button>
            <button type="button" className="btn btn-sm" disabled={working !== null || open.spec.variants.some((variant) => variant.version.prompt.kind !== "chat")} data-testid="exp-export-promptfoo"
                title="A promptfooconfig.yaml that promptfoo runs against the same engine: each variant a provider, each row a test, each check an assertion (chat variants only)"
                onClick={run("promptfoo config", () => downloadFile(`${base}.promptfooconfig.yaml`, promptfooConfigText(open.spec, open.dataset, gateway === undefined ? undefined : engineAddress(gateway.engine), `${base}.svc-experiment.json`), "text/yaml"))}>promptfoo config</button>
            {error && <span className="field-error small" role="alert">{error}</span>}
        </div>
    );
}
