// The Models screen: the library, downloads, the recommended catalog and the engine panels; the first-run card.
import {ApiErrorView, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {DownloadCard, RequestError} from "./DownloadCard.tsx";
import {EnginePanel, GpuPanel, LifecycleSettings} from "./EnginePanel.tsx";
import {LibraryCard} from "./LibraryCard.tsx";
import {useModelsState, useModelsMutation, catalogEntryState, downloadProgress} from "./models.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import type {ModelsState, CatalogEntry, DownloadJob} from "./types.ts";
import "./models.css";

/** Models: the library, downloads and the catalog, and the engine with its GPU and memory settings. */
export function ModelsScreen() {
    const {data: state, error, isLoading} = useModelsState();
    const empty = state != null && state.models.length === 0;
    return (
        <div className="page models-page" data-testid="models-screen">
            {isLoading && <div className="muted">Reading the model library…</div>}
            {error != null && <ApiErrorView error={toErrorInfo(error)} />}
            {state != null && (
                <>
                    {empty && <FirstRunCard state={state} />}
                    {(!empty || state.partial.length > 0 || state.builtIn != null) && <LibraryCard state={state} />}
                    <div className="models-columns">
                        <div className="models-column">
                            <DownloadCard downloads={state.downloads} />
                            <CatalogCard catalog={state.catalog} downloads={state.downloads} />
                        </div>
                        <div className="models-column">
                            <EnginePanel models={state} />
                            <GpuPanel />
                            <LifecycleSettings settings={state.settings} />
                        </div>
                    </div>
                </>
            )}
        </div>
    );
}

/** An empty library: what a model is for here, the one-click first download, and where else models come from. */
export function FirstRunCard({state}: {state: ModelsState}) {
    const first = state.catalog.find((entry) => entry.roles.includes("svc-1") && entry.installedId == null) ?? state.catalog[0];
    const start = useModelsMutation((catalogId: string) => gatewayApi.download({catalogId}));
    const downloading = state.downloads.some((job) => job.status === "downloading");
    return (
        <section className="card models-first-run" data-testid="models-first-run">
            <h2>Get a model to start</h2>
            <p>
                Svc Studio answers with a language model that runs on this computer, and there is none in the library yet.
                Download one of the recommended models below: it is saved in the library and becomes the default, and the engine can load it right away.
                {state.builtIn != null && " Until then the engine serves the built-in stories260K, a 1.2 MB model that writes children's stories (it knows no chat format)."}
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

export const catalogAnchor = "models-catalog";

/** Recommended models, each one click away; the sizes are the catalog's approximations until the server says. */
export function CatalogCard({catalog, downloads}: {catalog: CatalogEntry[], downloads: DownloadJob[]}) {
    const start = useModelsMutation((catalogId: string) => gatewayApi.download({catalogId}));
    return (
        <section className="card" id={catalogAnchor} data-testid="models-catalog">
            <div className="card-title-row">
                <h3>Recommended models</h3>
                <span className="muted small">From Hugging Face; sizes are approximate</span>
            </div>
            <ul className="models-catalog">
                {catalog.map((entry) => {
                    const state = catalogEntryState(entry, downloads);
                    return (
                        <li key={entry.id} className="models-catalog-entry" data-testid={`catalog-${entry.id}`}>
                            <div className="models-catalog-main">
                                <div className="row-gap">
                                    <span className="strong">{entry.name}</span>
                                    <span className="badge mono" data-testid="catalog-size">{entry.sizeLabel}</span>
                                </div>
                                <div className="small">{entry.description}</div>
                                <div className="row-gap models-catalog-facts small muted">
                                    <span>{entry.parameters} parameters</span>
                                    <span>{entry.quantization}</span>
                                    <span>{entry.license}</span>
                                    <span className="chips">{entry.roles.map((role) => <span key={role} className="badge badge-accent mono">{role}</span>)}</span>
                                </div>
                                <div className="mono muted small break">{entry.uri}</div>
                            </div>
                            <div className="models-catalog-action">
                                {state.kind === "installed" && <span className="badge badge-ok" data-testid="catalog-installed">in the library</span>}
                                {state.kind === "downloading" && <span className="badge badge-accent">{downloadProgress(state.job).bytes}</span>}
                                {state.kind === "available" && (
                                    <button type="button" className="btn btn-primary btn-sm" disabled={start.isPending} onClick={() => start.mutate(entry.id)}
                                        data-testid="catalog-download">Download</button>
                                )}
                            </div>
                        </li>
                    );
                })}
            </ul>
            {start.error != null && <RequestError error={start.error} />}
        </section>
    );
}
