import {useState} from "react";
import {ApiErrorView} from "../../components/ApiErrorView.tsx";
import {toErrorInfo} from "../../runs/toErrorInfo.ts";
import type {GpuBackend} from "../types.ts";
import {useGpuReport} from "../useGpuReport.ts";
import {formatBytes} from "../../../../base/common/format.ts";

const backendNames: Record<GpuBackend["type"], string> = {cuda: "CUDA (NVIDIA)", vulkan: "Vulkan", metal: "Metal (Apple)"};

function BackendRow({backend}: {backend: GpuBackend}) {
    const memory = backend.vramTotalBytes != null && backend.vramTotalBytes > 0
        ? `${formatBytes(backend.vramFreeBytes ?? 0)} free of ${formatBytes(backend.vramTotalBytes)}` : undefined;
    return (
        <li className="models-backend" data-testid={`gpu-backend-${backend.type}`} data-usable={backend.usable}>
            <div className="row-gap">
                <span className="strong">{backendNames[backend.type]}</span>
                <span className={`badge ${backend.usable ? "badge-ok" : "badge-warn"}`}>{backend.usable ? "usable" : "not usable"}</span>
            </div>
            {backend.usable
                ? <div className="small mono">{backend.devices.join(", ") || "device"}{memory != null ? ` · ${memory}` : ""}</div>
                : <div className="small" data-testid="gpu-reason">{backend.reason}</div>}
        </li>
    );
}

/** Which GPU backends llama.cpp can use on this machine, and for each one it cannot, why and what to install. */
export function GpuPanel() {
    const {data: report, error, isLoading, recheck} = useGpuReport();
    const [checking, setChecking] = useState(false);
    const [recheckError, setRecheckError] = useState<unknown>();
    const again = () => {
        setChecking(true);
        setRecheckError(undefined);
        recheck().catch(setRecheckError).finally(() => setChecking(false));
    };
    const failure = recheckError ?? error;
    return (
        <section className="card" data-testid="models-gpu">
            <div className="card-title-row">
                <h3>GPU</h3>
                {report != null && <span className="mono muted small">{report.platform} {report.arch}</span>}
                <button type="button" className="btn btn-sm push-right" disabled={checking || isLoading} onClick={again} data-testid="gpu-recheck">
                    {checking ? "Checking…" : "Check again"}
                </button>
            </div>
            {(isLoading || checking) && <div className="muted small">Detecting GPU backends (a few seconds)…</div>}
            {report != null && !checking && (
                <>
                    <div className={`models-gpu-verdict ${report.best === false ? "cpu" : "gpu"}`} data-testid="gpu-verdict">
                        {report.best === false
                            ? "No usable GPU: models run on the CPU (slower, but everything works)."
                            : `Models run on the GPU with ${backendNames[report.best]}; layers are offloaded automatically.`}
                    </div>
                    {report.hardware.nvidiaSmiGpus.length > 0 && <div className="small mono">nvidia-smi: {report.hardware.nvidiaSmiGpus.join("; ")}</div>}
                    <ul className="models-backends">
                        {report.backends.map((backend) => <BackendRow key={backend.type} backend={backend} />)}
                    </ul>
                </>
            )}
            {failure != null && <ApiErrorView error={toErrorInfo(failure)} />}
        </section>
    );
}
