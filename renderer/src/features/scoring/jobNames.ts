// The names of saved scoring jobs: each job's own (given in the Saved jobs list) kept in the app's data folder
// (gateway/appData.ts), else one made from what tells jobs apart: its file, its question set and when it started.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import {appDataStorage} from "../../gateway/appData.ts";

type JobNames = {
    /** Job id -> the name given to it; a job without one goes by `defaultJobName`. */
    names: Record<string, string>
};

export const useJobNames = create<JobNames>()(persist(() => ({names: {}} as JobNames), {
    name: "svc-studio-scoring-job-names",
    storage: createJSONStorage(() => appDataStorage),
    merge: (saved, current) => {
        const names = (saved as {names?: unknown} | null)?.names;
        const entries = typeof names === "object" && names !== null ? Object.entries(names).filter(([, name]) => typeof name === "string" && name.trim() !== "") : [];
        return {...current, names: Object.fromEntries(entries) as Record<string, string>};
    }
}));

/** When a job started, short: the month, day, hour and minute (two jobs of one file and set differ by it). */
export const jobTime = new Intl.DateTimeFormat(undefined, {month: "short", day: "numeric", hour: "2-digit", minute: "2-digit"});

export type NamedJob = {jobId: string, fileName: string, sheet: string | null, questionSetName: string | null, createdAt: number};

/** The name a job goes by until it is given one: file (and sheet) · question set · short date. */
export function defaultJobName(job: Omit<NamedJob, "jobId">): string {
    return `${job.fileName}${job.sheet ? ` · ${job.sheet}` : ""} · ${job.questionSetName ?? "untitled question set"} · ${jobTime.format(job.createdAt)}`;
}

/** The name given to the job, else its default. */
export function jobName(job: NamedJob, names: Readonly<Record<string, string>> = useJobNames.getState().names): string {
    return names[job.jobId] ?? defaultJobName(job);
}

/** Gives the job `name`; a blank one (or its default) takes the given name away. */
export function renameJob(job: NamedJob, name: string) {
    const trimmed = name.trim();
    const {[job.jobId]: _dropped, ...rest} = useJobNames.getState().names;
    useJobNames.setState({names: trimmed === "" || trimmed === defaultJobName(job) ? rest : {...rest, [job.jobId]: trimmed}});
}

/** Forgets the names of jobs no longer saved (deleted, or gone as newer ones came). */
export function keepJobNames(saved: ReadonlySet<string>) {
    const {names} = useJobNames.getState();
    if (Object.keys(names).every((jobId) => saved.has(jobId))) return;
    useJobNames.setState({names: Object.fromEntries(Object.entries(names).filter(([jobId]) => saved.has(jobId)))});
}
