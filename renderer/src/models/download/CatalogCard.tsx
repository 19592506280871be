import {modelsApi} from "../modelsApi.ts";
import type {CatalogEntry, DownloadJob} from "../types.ts";
import {useModelsMutation} from "../useModelsMutation.ts";
import {catalogEntryState} from "../utils/catalogEntryState.ts";
import {downloadProgress} from "../utils/downloadProgress.ts";
import {RequestError} from "./RequestError.tsx";

export const catalogAnchor = "models-catalog";

/** Recommended models, each one click away; the sizes are the catalog's approximations until the server says. */
export function CatalogCard({catalog, downloads}: {catalog: CatalogEntry[], downloads: DownloadJob[]}) {
    const start = useModelsMutation((catalogId: string) => modelsApi.download({catalogId}));
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
