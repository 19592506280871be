// Whether the connection a request goes to reads images, said next to the attached images before anything is sent:
// the local engine reads them only when its model was loaded with a vision projector (mmproj); without
// one it answers 400 ("cannot read images"), which the page would otherwise show only after the run.
import type {Connection, EngineState} from "../gateway/types.ts";
import {fileNameOf} from "../../../base/common/fileNameOf.ts";

export type ImageSupport =
    /** The hosted service: it reads images (spec 2.1), nothing to say. */
    | {kind: "remote"}
    /** The local engine's model reads images with this projector. */
    | {kind: "sees", model: string, projector: string}
    /** The local engine runs a model without a projector: a request with an image is refused. */
    | {kind: "blind", model: string}
    /** The local engine is not running (or still loading): what it can read is known once it runs. */
    | {kind: "unknown", status: EngineState["status"]};

/** What the active connection does with images, from the gateway state's engine status (EngineStatus.mmproj). */
export function imageSupport(engine: EngineState | undefined, connection: Connection): ImageSupport {
    if (connection.kind === "remote") return {kind: "remote"};
    if (engine == null || engine.status !== "running" || engine.model == null) return {kind: "unknown", status: engine?.status ?? "stopped"};
    const model = fileNameOf(engine.model);
    return engine.mmproj != null ? {kind: "sees", model, projector: fileNameOf(engine.mmproj)} : {kind: "blind", model};
}

/**
 * The line under attached images: a warning when the local model cannot read them (the engine would refuse the
 * request), else which model reads them with which projector. Nothing without images or on a remote connection.
 */
export function ImageSupportNote({support, imageCount}: {support: ImageSupport, imageCount: number}) {
    if (imageCount === 0 || support.kind === "remote") return null;
    const images = imageCount === 1 ? "the image" : `the ${imageCount} images`;
    switch (support.kind) {
        case "blind":
            return (
                <div className="field-warning image-support" role="status" data-testid="image-support" data-vision="blind">
                    The local model <span className="mono">{support.model}</span> cannot read images: it was loaded without a vision projector
                    (no mmproj file of its name beside it), so the engine will refuse this request. Load a vision model on the Models screen,
                    or remove {images}.
                </div>
            );
        case "sees":
            return (
                <div className="field-ok image-support" data-testid="image-support" data-vision="sees">
                    <span className="mono">{support.model}</span> reads {images} with its projector <span className="mono">{support.projector}</span>.
                </div>
            );
        case "unknown":
            return (
                <div className="muted small image-support" data-testid="image-support" data-vision="unknown">
                    The local engine is {support.status === "starting" ? "loading its model" : "not running"}: {images} can be read only if its model
                    has a vision projector (a vision model from the Models screen).
                </div>
            );
    }
}

/** Whether the running local model reads images (the Engine and Models screens): "vision" and its projector's file, or why not. */
export function VisionFact({mmproj}: {mmproj?: string}) {
    return mmproj != null
        ? <span className="row-gap" title={mmproj}><span className="badge badge-ok" data-testid="engine-vision-badge">vision</span> {fileNameOf(mmproj)}</span>
        : <span className="muted" title="No vision projector (mmproj-<name>.gguf) beside the model: requests with images are refused">text only, no projector</span>;
}
