import type {LibraryModel, ModelRole} from "../types.ts";

const roles: Array<{role: ModelRole, hint: string}> = [
    {role: "svc-1", hint: "chat, responses and completions (the default model)"},
    {role: "svc-1-reasoning", hint: "reasoning: the model thinks before answering"},
    {role: "svc-1-decision", hint: "decisions: label probabilities"}
];

/**
 * Which model ids this file serves. `svc-1` is the default model, so it can only be handed to another model
 * (never left without one); the other roles toggle on and off.
 */
export function RoleToggles({model, busy, onChange}: {model: LibraryModel, busy: boolean, onChange: (role: ModelRole, modelId: string | null) => void}) {
    const unreadable = model.info == null;
    return (
        <div className="models-roles" role="group" aria-label={`Roles of ${model.id}`}>
            {roles.map(({role, hint}) => {
                const on = model.roles.includes(role);
                const fixed = on && role === "svc-1";
                const warning = role === "svc-1-reasoning" && model.info != null && !model.info.canThink ? " (this model's chat format has no thinking segment)" : "";
                return (
                    <button key={role} type="button" className={`models-role${on ? " on" : ""}${warning ? " warn" : ""}`} aria-pressed={on}
                        disabled={busy || unreadable || fixed} data-testid={`role-${role}`}
                        title={`${on ? "Serves" : "Serve"} ${role}: ${hint}${warning}${fixed ? "; give svc-1 to another model to change it" : ""}`}
                        onClick={() => onChange(role, on ? null : model.id)}>
                        {role}
                    </button>
                );
            })}
        </div>
    );
}
