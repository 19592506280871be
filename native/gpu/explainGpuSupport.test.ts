import assert from "node:assert/strict";
import {test} from "node:test";
import {explainGpuSupport, worthTrying} from "./detectGpu.ts";
import type {GpuHardware} from "../../protocol/gateway/contract.ts";

const linux: GpuHardware = {
    platform: "linux", arch: "x64", nvidiaDeviceFile: false, nvidiaSmiGpus: [], nvidiaDriverLibrary: false,
    missingCudaLibraries: ["libcudart", "libcublas", "libcublasLt"], vulkanLoader: false
};

test("no GPU at all: each backend says what is missing, and nothing is worth loading", () => {
    const [cuda, vulkan] = explainGpuSupport(linux, {});
    assert.equal(cuda.usable, false);
    assert.match(cuda.reason!, /no NVIDIA GPU found/);
    assert.match(vulkan.reason!, /no Vulkan loader found/);
    assert.equal(worthTrying("cuda", linux), false);
    assert.equal(worthTrying("vulkan", linux), false);
});

test("an NVIDIA GPU without the CUDA runtime is named, with the missing libraries", () => {
    const hardware = {...linux, nvidiaDeviceFile: true, nvidiaSmiGpus: ["NVIDIA H100 80GB HBM3, 81559 MiB"], nvidiaDriverLibrary: true, missingCudaLibraries: ["libcudart", "libcublas"]};
    const [cuda] = explainGpuSupport(hardware, {});
    assert.equal(cuda.usable, false);
    assert.match(cuda.reason!, /NVIDIA GPU is present \(NVIDIA H100 80GB HBM3, 81559 MiB\) but the CUDA runtime is missing \(libcudart, libcublas not found\)/);
    assert.equal(worthTrying("cuda", hardware), false, "loading the CUDA build without its runtime would only fail");
    // The device file alone (no nvidia-smi) is enough to know a GPU is there; without the driver library that is the reason.
    const [noDriver] = explainGpuSupport({...linux, nvidiaDeviceFile: true}, {});
    assert.match(noDriver.reason!, /\(\/dev\/nvidia0\) but its driver library .* is not installed/);
});

test("a backend that loaded is usable with its devices; one that failed keeps the loader's message", () => {
    const hardware = {...linux, nvidiaDeviceFile: true, nvidiaDriverLibrary: true, missingCudaLibraries: [], vulkanLoader: true};
    assert.equal(worthTrying("cuda", hardware), true);
    assert.equal(worthTrying("vulkan", hardware), true);
    const [cuda, vulkan] = explainGpuSupport(hardware, {
        cuda: {ok: true, devices: ["NVIDIA H100"], vramTotalBytes: 80e9, vramFreeBytes: 79e9},
        vulkan: {ok: false, error: "NoBinaryFoundError"}
    });
    assert.deepEqual(cuda, {type: "cuda", usable: true, devices: ["NVIDIA H100"], vramTotalBytes: 80e9, vramFreeBytes: 79e9});
    assert.equal(vulkan.usable, false);
    assert.match(vulkan.reason!, /Vulkan build could not be loaded .*: NoBinaryFoundError$/);
});

test("macOS: Metal on Apple silicon only", () => {
    const mac = {...linux, platform: "darwin" as const, arch: "arm64"};
    assert.deepEqual(explainGpuSupport(mac, {metal: {ok: true, devices: ["Apple M2"], vramTotalBytes: 1, vramFreeBytes: 1}}).map((backend) => backend.type), ["metal"]);
    assert.deepEqual(explainGpuSupport({...mac, arch: "x64"}, {}), []);
});
