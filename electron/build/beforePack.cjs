// electron-builder's beforePack hook (electron-builder.yml): a package is built on the platform it is for. npm
// installed the native binaries of this machine (node-llama-cpp's and @fugood/llama.node's per-platform packages),
// and the `files` patterns keep this platform's (${platform}); a package for another platform would have no engine.
exports.default = async function beforePack(context) {
    if (context.electronPlatformName !== process.platform)
        throw new Error(`Svc Studio packages for ${context.electronPlatformName} must be built on ${context.electronPlatformName} ` +
            `(this machine is ${process.platform}): its native binaries are installed per platform by npm`);
};
