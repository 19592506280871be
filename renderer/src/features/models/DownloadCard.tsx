// Downloads: start one from a link, follow each one's progress, and the errors the gateway answers with.
import {useState, type FormEvent} from "react";
import {ApiErrorView, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {useModelsMutation, visibleDownloads, downloadErrorTitle, downloadProgress} from "./models.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import type {DownloadJob} from "./types.ts";

/** Download from a link (any http(s) URL of a .gguf, or `hf:user/repo/file.gguf`), and the downloads so far. */
export function DownloadCard({downloads}: {downloads: DownloadJob[]}) {
    const [source, setSource] = useState("");
    const [showAll, setShowAll] = useState(false);
    const {shown, hidden} = visibleDownloads(downloads, showAll);
    const start = useModelsMutation((text: string) => gatewayApi.download({source: text}));
    const cancel = useModelsMutation(gatewayApi.cancelDownload);
    const submit = (event: FormEvent) => {
        event.preventDefault();
        if (source.trim() === "") return;
        start.mutate(source.trim(), {onSuccess: () => setSource("")});
    };
    return (
        <section className="card" data-testid="models-download">
            <div className="card-title-row"><h3>Download a model</h3></div>
            <form className="models-source-form" onSubmit={submit}>
                <input className="input mono" value={source} onChange={(event) => { setSource(event.target.value); start.reset(); }}
                    placeholder="https://…/model.gguf  or  hf:user/repo/file.gguf" aria-label="Model URL or hf: source" data-testid="download-source"
                    spellCheck={false} autoComplete="off" />
                <button type="submit" className="btn btn-primary" disabled={start.isPending || source.trim() === ""} data-testid="download-start">
                    {start.isPending ? "Starting…" : "Download"}
                </button>
            </form>
            <div className="muted small models-hint">
                A Hugging Face file: <span className="mono">hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf</span>, or its <span className="mono">/resolve/</span> link.
                An interrupted download resumes when started again.
            </div>
            {start.error != null && <RequestError error={start.error} />}
            {cancel.error != null && <RequestError error={cancel.error} />}
            {downloads.length > 0 && (
                <ul className="models-downloads" data-testid="downloads">
                    {shown.map((job) => (
                        <DownloadRow key={job.id} job={job} onCancel={(id) => cancel.mutate(id)} cancelling={cancel.isPending && cancel.variables === job.id} />
                    ))}
                </ul>
            )}
            {(hidden > 0 || showAll) && (
                <button type="button" className="link-btn models-more" onClick={() => setShowAll(!showAll)} data-testid="downloads-toggle">
                    {showAll ? "Show only the latest downloads" : `Show ${hidden} older download${hidden === 1 ? "" : "s"}`}
                </button>
            )}
        </section>
    );
}

const statusClass: Record<DownloadJob["status"], string> = {
    downloading: "status-running", done: "status-done", failed: "status-error", cancelled: "status-stopped"
};

/** One download: progress with speed and time left while it runs, then how it ended. */
export function DownloadRow({job, onCancel, cancelling}: {job: DownloadJob, onCancel: (id: string) => void, cancelling: boolean}) {
    const progress = downloadProgress(job);
    const running = job.status === "downloading";
    return (
        <li className={`models-download status-${job.status}`} data-testid={`download-${job.fileName}`} data-status={job.status}>
            <div className="models-download-head">
                <span className="mono strong break">{job.fileName}</span>
                <span className={`status-badge ${statusClass[job.status]}`} data-testid="download-status">{job.status}</span>
                {running && (
                    <button type="button" className="btn btn-sm push-right" disabled={cancelling} onClick={() => onCancel(job.id)} data-testid="download-cancel">
                        {cancelling ? "Cancelling…" : "Cancel"}
                    </button>
                )}
            </div>
            <div className="mono muted small break" title="source">{job.source}</div>
            {job.projector != null && (
                <div className="small" data-testid="download-projector" data-done={job.projector.done}>
                    <span className="badge badge-accent">vision</span>{" "}
                    {progress.projector != null ? "now its projector " : job.projector.done ? "with its projector " : "then its projector "}
                    <span className="mono">{job.projector.fileName}</span>
                </div>
            )}
            {job.status !== "failed" && job.status !== "cancelled" && (
                <div className={`models-bar${progress.fraction == null ? " indeterminate" : ""}`} role="progressbar" aria-label={`Download of ${job.fileName}`}
                    aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress.fraction != null ? Math.round(progress.fraction * 100) : undefined}
                    data-testid="download-bar">
                    <div className={`models-bar-fill ${statusClass[job.status]}`} style={{width: `${Math.round((progress.fraction ?? 0.3) * 100)}%`}} />
                </div>
            )}
            {(job.receivedBytes > 0 || job.status === "downloading" || job.status === "done") && <div className="models-download-figures small" data-testid="download-figures">
                <span className="mono">{progress.bytes}</span>
                {progress.fraction != null && running && <span className="mono">{Math.floor(progress.fraction * 100)}%</span>}
                {progress.speed && <span className="mono" data-testid="download-speed">{progress.speed}</span>}
                {progress.eta && <span className="mono" data-testid="download-eta">{progress.eta}</span>}
                {job.attempt > 1 && <span className="muted">attempt {job.attempt}</span>}
            </div>}
            {running && job.retrying && (
                <div className="field-warning" data-testid="download-retrying">Connection trouble, retrying (attempt {job.attempt}): {job.retrying}</div>
            )}
            {job.status === "done" && (
                <div className="field-ok" data-testid="download-done">Added to the library as <span className="mono">{job.modelId}</span>
                    {job.projector != null && <>, paired with <span className="mono">{job.projector.fileName}</span>: it reads images</>}</div>
            )}
            {job.status === "failed" && job.error && (
                <div className="models-download-error" role="alert" data-testid="download-error">
                    <div className="row-gap">
                        <span className="strong">{downloadErrorTitle(job.error.code)}</span>
                        <span className="badge badge-danger mono" data-testid="download-error-code">{job.error.code}</span>
                    </div>
                    <div data-testid="download-error-message">{job.error.message}</div>
                </div>
            )}
        </li>
    );
}

/** A download the gateway refused at once (400 bad source, 409 already downloading): a headline, then the error as sent. */
export function RequestError({error}: {error: unknown}) {
    const info = toErrorInfo(error);
    return (
        <div className="models-request-error" data-testid="download-request-error">
            <div className="strong">{downloadErrorTitle(info.code ?? "")}</div>
            <ApiErrorView error={info} />
        </div>
    );
}
