/**
 * The variable that hands `serve` a secret key from its parent (the app's EngineSupervisor): an environment
 * variable, because a command line is readable by every user of the machine (`ps`, /proc/PID/cmdline), while a
 * process's environment is readable by its own user only. A leaf module, so the Electron main process can name the
 * variable without loading the engine.
 */
export const engineKeyEnvVar = "SVC_STUDIO_ENGINE_KEY";

/** The engine's admin key (its admin API and /metrics), handed down the same way (native/service/adminRoutes.ts). */
export const adminKeyEnvVar = "SVC_STUDIO_ADMIN_KEY";

/**
 * The PostgreSQL database of `serve` and `admin` when `--database` is not given: a URL that may carry a password,
 * so it is better kept off the command line (PGPASSWORD and ~/.pgpass work too).
 */
export const databaseUrlEnvVar = "SVC_STUDIO_DATABASE_URL";

/** The key handed down in `env`, removed from it so nothing this process starts inherits it; undefined when none. */
export function takeEngineKey(env: NodeJS.ProcessEnv): string | undefined {
    return takeSecretEnv(env, engineKeyEnvVar);
}

/** A secret handed down in variable `name` (for the reason above), removed from `env`; undefined when unset or blank. */
export function takeSecretEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
    const value = env[name]?.trim();
    delete env[name];
    return value === "" ? undefined : value;
}
