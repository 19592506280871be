// electron-builder's beforePack hook (electron-builder.yml): a package is built on the platform and CPU architecture
// it is for. npm installed the native binaries of this machine (node-llama-cpp's and @fugood/llama.node's per-platform
// packages; the vision addon for this architecture only), and the `files` patterns keep this platform's and
// architecture's (${platform}, ${arch}); a package for another one would have no working engine.

/** electron-builder's Arch enum (builder-util), by value: what `context.arch` holds. */
const archNames = ["ia32", "x64", "armv7l", "arm64", "universal"];

/** Node's process.arch as electron-builder names it (Node's `arm` is electron-builder's `armv7l`). */
function builderArch(nodeArch) {
    return nodeArch === "arm" ? "armv7l" : nodeArch;
}

exports.default = async function beforePack(context) {
    if (context.electronPlatformName !== process.platform)
        throw new Error(`Svc Studio packages for ${context.electronPlatformName} must be built on ${context.electronPlatformName} ` +
            `(this machine is ${process.platform}): its native binaries are installed per platform by npm`);
    const arch = archNames[context.arch] ?? String(context.arch);
    const here = builderArch(process.arch);
    if (arch === "universal")
        throw new Error("Svc Studio has no universal package: npm installs the native binaries of one architecture, so build the " +
            "x64 and the arm64 package each on a machine of that architecture");
    if (arch !== here)
        throw new Error(`Svc Studio packages for ${arch} must be built on a ${arch} machine (this one is ${here}): npm installs ` +
            `the native binaries of this machine's architecture, so a ${arch} package would have no working engine`);
};
