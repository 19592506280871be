import type {ConnectionStore, RemoteProfile} from "./ConnectionStore.ts";
import type {KeyStore} from "./KeyStore.ts";

/**
 * Browser mode: with `SVC_REMOTE_BASE_URL` and `SVC_REMOTE_API_KEY` both set, adds the profile "remote (env)"
 * with that key (kept in the gateway's memory). Returns the profile, or undefined when the pair is not set.
 */
export async function seedEnvRemote(connections: ConnectionStore, vault: KeyStore, env: NodeJS.ProcessEnv): Promise<RemoteProfile | undefined> {
    const baseUrl = env.SVC_REMOTE_BASE_URL?.trim();
    const apiKey = env.SVC_REMOTE_API_KEY?.trim();
    if (!baseUrl || !apiKey) {
        if (baseUrl || apiKey) console.warn("svc-studio web: set both SVC_REMOTE_BASE_URL and SVC_REMOTE_API_KEY for a remote connection; ignoring the one given");
        return undefined;
    }
    const profile = connections.createRemote({name: "remote (env)", baseUrl});
    await vault.set(profile.id, apiKey);
    await connections.add(profile);
    return profile;
}
