import {ApiErrorView} from "../components/ApiErrorView.tsx";
import {CatalogCard} from "../models/download/CatalogCard.tsx";
import {DownloadCard} from "../models/download/DownloadCard.tsx";
import {EnginePanel} from "../models/engine/EnginePanel.tsx";
import {GpuPanel} from "../models/engine/GpuPanel.tsx";
import {LifecycleSettings} from "../models/engine/LifecycleSettings.tsx";
import {FirstRunCard} from "../models/FirstRunCard.tsx";
import {LibraryCard} from "../models/library/LibraryCard.tsx";
import {useModelsState} from "../models/useModelsState.ts";
import {toErrorInfo} from "../runs/toErrorInfo.ts";
import "../models/models.css";

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
                    {(!empty || state.partial.length > 0) && <LibraryCard state={state} />}
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
