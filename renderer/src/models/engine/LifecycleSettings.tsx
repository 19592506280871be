import {useEffect, useState, type FormEvent} from "react";
import {ApiErrorView} from "../../components/ApiErrorView.tsx";
import {toErrorInfo} from "../../runs/toErrorInfo.ts";
import {modelsApi} from "../modelsApi.ts";
import type {LifecycleSettings as Settings} from "../types.ts";
import {useModelsMutation} from "../useModelsMutation.ts";

/** When the engine loads and unloads by itself: on the first request, and after some idle minutes. */
export function LifecycleSettings({settings}: {settings: Settings}) {
    const configure = useModelsMutation(modelsApi.configure);
    const [minutes, setMinutes] = useState(String(settings.idleUnloadMinutes));
    // Follow the gateway's value unless the user is editing it.
    const [editing, setEditing] = useState(false);
    useEffect(() => {
        if (!editing) setMinutes(String(settings.idleUnloadMinutes));
    }, [settings.idleUnloadMinutes, editing]);
    // The box shows the choice at once (a controlled box would flick back until the gateway's answer arrives).
    const [autoStartChoice, setAutoStartChoice] = useState<boolean>();
    const autoStart = autoStartChoice ?? settings.autoStart;
    const chooseAutoStart = (value: boolean) => {
        setAutoStartChoice(value);
        configure.mutate({autoStart: value}, {onSettled: () => setAutoStartChoice(undefined)});
    };
    const parsed = Number(minutes);
    const valid = minutes.trim() !== "" && Number.isInteger(parsed) && parsed >= 0 && parsed <= 7 * 24 * 60;
    const save = (event: FormEvent) => {
        event.preventDefault();
        if (!valid) return;
        configure.mutate({idleUnloadMinutes: parsed}, {onSettled: () => setEditing(false)});
    };
    return (
        <section className="card" data-testid="models-settings">
            <div className="card-title-row"><h3>Loading and unloading</h3></div>
            <label className="models-check">
                <input type="checkbox" checked={autoStart} disabled={configure.isPending}
                    onChange={(event) => chooseAutoStart(event.target.checked)} data-testid="setting-auto-start" />
                <span>
                    Start the engine on the first request
                    <span className="muted small models-check-hint">A request to the local engine while it is stopped loads the last model (or the default).</span>
                </span>
            </label>
            <form className="models-idle" onSubmit={save}>
                <label htmlFor="models-idle-minutes">Unload after</label>
                <input id="models-idle-minutes" className="input input-sm mono" type="number" min={0} max={7 * 24 * 60} step={1} value={minutes}
                    onChange={(event) => { setEditing(true); setMinutes(event.target.value); }} data-testid="setting-idle-minutes" />
                <span>idle minutes</span>
                <button type="submit" className="btn btn-sm" disabled={!valid || configure.isPending || Number(minutes) === settings.idleUnloadMinutes}
                    data-testid="setting-idle-save">Save</button>
            </form>
            <div className={valid ? "muted small" : "field-error"}>
                {valid ? (parsed === 0 ? "0 keeps the model loaded until you stop it." : "Frees the model's memory when unused; the next request loads it again.")
                    : "A whole number of minutes, 0 to 10080 (a week)."}
            </div>
            {configure.error != null && <ApiErrorView error={toErrorInfo(configure.error)} />}
        </section>
    );
}
