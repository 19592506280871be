import {useState, type FormEvent} from "react";
import {modelsApi} from "../modelsApi.ts";
import type {DownloadJob} from "../types.ts";
import {useModelsMutation} from "../useModelsMutation.ts";
import {visibleDownloads} from "../utils/visibleDownloads.ts";
import {DownloadRow} from "./DownloadRow.tsx";
import {RequestError} from "./RequestError.tsx";

/** Download from a link (any http(s) URL of a .gguf, or `hf:user/repo/file.gguf`), and the downloads so far. */
export function DownloadCard({downloads}: {downloads: DownloadJob[]}) {
    const [source, setSource] = useState("");
    const [showAll, setShowAll] = useState(false);
    const {shown, hidden} = visibleDownloads(downloads, showAll);
    const start = useModelsMutation((text: string) => modelsApi.download({source: text}));
    const cancel = useModelsMutation(modelsApi.cancelDownload);
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
