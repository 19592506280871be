import {modelsApi} from "./modelsApi.ts";
import type {ModelsState} from "./types.ts";
import {useModelsMutation} from "./useModelsMutation.ts";
import {catalogAnchor} from "./download/CatalogCard.tsx";
import {RequestError} from "./download/RequestError.tsx";

/** An empty library: what a model is for here, the one-click first download, and where else models come from. */
export function FirstRunCard({state}: {state: ModelsState}) {
    const first = state.catalog.find((entry) => entry.roles.includes("svc-1") && entry.installedId == null) ?? state.catalog[0];
    const start = useModelsMutation((catalogId: string) => modelsApi.download({catalogId}));
    const downloading = state.downloads.some((job) => job.status === "downloading");
    return (
        <section className="card models-first-run" data-testid="models-first-run">
            <h2>Get a model to start</h2>
            <p>
                Svc Studio answers with a language model that runs on this computer, and there is none in the library yet.
                Download one of the recommended models below: it is saved in the library and becomes the default, and the engine can load it right away.
            </p>
            {downloading
                ? <p className="strong">A download is running: its progress is shown under “Download a model”.</p>
                : first != null && (
                    <div className="row-gap models-first-actions">
                        <button type="button" className="btn btn-primary" disabled={start.isPending} onClick={() => start.mutate(first.id)} data-testid="first-run-download"
                            title={first.uri}>
                            Download {first.name}
                        </button>
                        <a className="btn" href={`#${catalogAnchor}`} onClick={(event) => {
                            event.preventDefault();
                            document.getElementById(catalogAnchor)?.scrollIntoView({behavior: "smooth", block: "start"});
                        }} data-testid="first-run-catalog">See all recommended models</a>
                        <span className="muted small" data-testid="first-run-size">{first.sizeLabel} · {first.description}</span>
                    </div>
                )}
            <p className="muted small">
                Already have a GGUF file? Paste its link under “Download a model”, or copy it into <span className="mono break">{state.dir}</span>.
            </p>
            {start.error != null && <RequestError error={start.error} />}
        </section>
    );
}
