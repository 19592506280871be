import {ApiErrorView} from "../../components/ApiErrorView.tsx";
import {toErrorInfo} from "../../runs/toErrorInfo.ts";
import {modelsApi} from "../modelsApi.ts";
import type {ModelRole, ModelsState} from "../types.ts";
import {useModelsMutation} from "../useModelsMutation.ts";
import {ModelRow} from "./ModelRow.tsx";
import {PartialDownloads} from "./PartialDownloads.tsx";

/** The model library: every GGUF in the folder with its metadata, roles and actions, then unfinished downloads. */
export function LibraryCard({state}: {state: ModelsState}) {
    const setDefault = useModelsMutation(modelsApi.setDefault);
    const setRole = useModelsMutation(({role, modelId}: {role: ModelRole, modelId: string | null}) => modelsApi.setRole(role, modelId));
    const load = useModelsMutation(modelsApi.load);
    const remove = useModelsMutation(modelsApi.remove);
    const resume = useModelsMutation((part: {url: string, fileName: string}) => modelsApi.download({source: part.url, fileName: part.fileName}));
    const mutations = [setDefault, setRole, load, remove, resume];
    const busy = mutations.some((mutation) => mutation.isPending);
    // The last action's failure (one at a time: a new action clears the old error by resetting the others).
    const failed = mutations.find((mutation) => mutation.isError);
    const act = <A,>(mutation: {mutate: (arg: A) => void}) => (arg: A) => {
        for (const other of mutations) other.reset();
        mutation.mutate(arg);
    };
    return (
        <section className="card" data-testid="models-library">
            <div className="card-title-row">
                <h3>Library</h3>
                <span className="badge">{state.models.length} model{state.models.length === 1 ? "" : "s"}</span>
                <span className="muted small push-right" title="The library folder: .gguf files copied here appear too">
                    Folder <span className="mono break" data-testid="models-dir">{state.dir}</span>
                </span>
            </div>
            {state.models.length > 0 && (
                <div className="models-table-wrap">
                    <table className="table models-table">
                        <thead>
                            <tr>
                                <th>Model</th><th>Architecture</th><th>Parameters</th><th>Quantization</th><th>Context</th><th>Capabilities</th>
                                <th>Size</th><th>Roles</th><th>Actions</th>
                            </tr>
                        </thead>
                        <tbody>
                            {state.models.map((model) => (
                                <ModelRow key={model.id} model={model} active={state.active} actions={{
                                    busy,
                                    loadingId: load.isPending ? load.variables : undefined,
                                    setDefault: act(setDefault),
                                    setRole: (role, modelId) => act(setRole)({role, modelId}),
                                    load: act(load),
                                    remove: act(remove)
                                }} />
                            ))}
                        </tbody>
                    </table>
                </div>
            )}
            <PartialDownloads partial={state.partial} downloads={state.downloads} busy={busy} onResume={act(resume)} />
            {failed?.error != null && <ApiErrorView error={toErrorInfo(failed.error)} />}
        </section>
    );
}
