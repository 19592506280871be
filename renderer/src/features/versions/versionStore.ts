// Saved prompts and question sets with their versions, in the app's database: the list of items is read as the app
// starts; an item's versions (a chat prompt may hold images) are read when that item is first shown or run, then kept.
// Versions are never changed once saved: a change is a new version, numbered by the gateway, so an experiment that ran
// a version can always say exactly what it sent, and two windows saving at once both keep theirs.
import {useEffect} from "react";
import {create} from "zustand";
import type {PromptVersion, PromptVersionBody} from "../../../../client/experiments/types.ts";
import {reportAppDataProblem} from "../../gateway/appData.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {newId} from "../../ui/browser.ts";

/** What a version is opened in: the chat or Responses playground, or the Decision studio. */
export type PromptKind = "chat" | "responses" | "decision";

export const promptKindNames: Record<PromptKind, string> = {chat: "Chat", responses: "Responses", decision: "Question set"};

/** A saved prompt or question set as the list shows it; its versions count up from 1. */
export type PromptItem = {itemId: string, itemName: string, kind: PromptKind, latest: number, updatedAt: number};

export const kindOf = (prompt: PromptVersionBody): PromptKind => prompt.kind === "decision" ? "decision" : prompt.endpoint;

/** The saved items, the most recently changed first. */
export const useVersionsStore = create<{items: PromptItem[]}>()(() => ({items: []}));

/** Each item's versions as read, newest first, by item id. */
export const useItemVersionsStore = create<{versions: Record<string, PromptVersion[]>}>()(() => ({versions: {}}));

/** Reads the list of items; never throws (a failure is said in the app's note, and the list stays empty). */
export async function loadPromptItems(): Promise<void> {
    try {
        useVersionsStore.setState({items: (await gatewayApi.promptItems()).items});
    } catch (error) {
        reportAppDataProblem("versions", `Your saved prompts could not be read (${(error as Error).message}). Restart the app to try again.`);
    }
}

function setVersions(itemId: string, versions: PromptVersion[] | null) {
    const {[itemId]: _old, ...others} = useItemVersionsStore.getState().versions;
    useItemVersionsStore.setState({versions: versions === null ? others : {...others, [itemId]: versions}});
}

const reading = new Map<string, Promise<PromptVersion[]>>();

/** An item's versions, newest first, read once and then kept (empty when there is no such item or they could not be read). */
export function loadItemVersions(itemId: string): Promise<PromptVersion[]> {
    const item = useVersionsStore.getState().items.find((candidate) => candidate.itemId === itemId);
    const held = useItemVersionsStore.getState().versions[itemId];
    if (item === undefined) return Promise.resolve([]);
    if (held !== undefined && (held[0]?.version ?? 0) >= item.latest) return Promise.resolve(held);
    const pending = reading.get(itemId);
    if (pending !== undefined) return pending;
    const read = gatewayApi.promptVersions(itemId).then(({versions, problems}) => {
        const kept = versions as PromptVersion[];
        setVersions(itemId, kept);
        reportAppDataProblem(`versions:${itemId}`, problems.length === 0 ? null : problems.join(" "));
        return kept;
    }, (error: unknown) => {
        reportAppDataProblem(`versions:${itemId}`, `The versions of "${item.itemName}" could not be read (${(error as Error).message}).`);
        return [] as PromptVersion[];
    }).finally(() => reading.delete(itemId));
    reading.set(itemId, read);
    return read;
}

/** Every version of an item read so far, newest first; reading them is started when they are not here yet. */
export function itemVersions(itemId: string): PromptVersion[] {
    const held = useItemVersionsStore.getState().versions[itemId];
    if (held === undefined) void loadItemVersions(itemId);
    return held ?? [];
}

/** The versions of an item, newest first, read when first shown and again when one is added. */
export function useItemVersions(itemId: string | null): PromptVersion[] {
    const latest = useVersionsStore((state) => state.items.find((item) => item.itemId === itemId)?.latest);
    const versions = useItemVersionsStore((state) => itemId === null ? undefined : state.versions[itemId]);
    useEffect(() => {
        if (itemId !== null && latest !== undefined) void loadItemVersions(itemId);
    }, [itemId, latest]);
    return latest === undefined || versions === undefined ? noVersions : versions;
}

const noVersions: PromptVersion[] = [];

/** One version as read so far, null when there is no such item or version, or it is not read yet. */
export function getVersion(itemId: string, version: number): PromptVersion | null {
    return itemVersions(itemId).find((candidate) => candidate.version === version) ?? null;
}

/** Items of one kind (a playground's own list), the most recently changed first. */
export function itemsOfKind(items: readonly PromptItem[], kind: PromptKind): PromptItem[] {
    return items.filter((item) => item.kind === kind);
}

/**
 * Saves `prompt` as the next version of the item `itemId` (a new item named `itemName` when `itemId` is null or
 * unknown), answered once committed. A new version of an existing item must be of the same kind.
 */
export async function saveVersion(input: {itemId: string | null, itemName: string, prompt: PromptVersionBody, note: string}): Promise<{ok: true, version: PromptVersion} | {ok: false, text: string}> {
    const {items} = useVersionsStore.getState();
    const existing = input.itemId === null ? undefined : items.find((item) => item.itemId === input.itemId);
    const kind = kindOf(input.prompt);
    if (existing !== undefined && existing.kind !== kind)
        return {ok: false, text: `"${existing.itemName}" holds ${promptKindNames[existing.kind]} versions; save this ${promptKindNames[kind]} prompt as a new item.`};
    const name = (existing?.itemName ?? input.itemName).trim();
    if (name === "") return {ok: false, text: "Give the prompt a name."};
    const itemId = existing?.itemId ?? newId();
    try {
        const previous = existing === undefined ? [] : await loadItemVersions(itemId);
        const saved = (await gatewayApi.addPromptVersion(itemId, {itemName: name, kind, note: input.note.trim(), prompt: structuredClone(input.prompt)})).version as PromptVersion;
        // Another window may have saved versions in between: they are read with the next look at this item.
        setVersions(itemId, saved.version === (previous[0]?.version ?? 0) + 1 ? [saved, ...previous] : null);
        const item: PromptItem = {itemId, itemName: saved.itemName, kind, latest: saved.version, updatedAt: saved.createdAt};
        useVersionsStore.setState((state) => ({items: [item, ...state.items.filter((candidate) => candidate.itemId !== itemId)]}));
        return {ok: true, version: saved};
    } catch (error) {
        return {ok: false, text: `The version could not be saved: ${(error as Error).message}`};
    }
}

/** Deletes an item with all its versions, once committed; returns them, so an Undo can put them back with `restoreItem`. */
export async function deleteItem(itemId: string): Promise<{ok: true, item: PromptItem, versions: PromptVersion[]} | {ok: false, text: string}> {
    const item = useVersionsStore.getState().items.find((candidate) => candidate.itemId === itemId);
    if (item === undefined) return {ok: false, text: "That prompt no longer exists."};
    try {
        const versions = await loadItemVersions(itemId);
        await gatewayApi.deletePromptItem(itemId);
        setVersions(itemId, null);
        useVersionsStore.setState((state) => ({items: state.items.filter((candidate) => candidate.itemId !== itemId)}));
        return {ok: true, item, versions};
    } catch (error) {
        return {ok: false, text: `"${item.itemName}" could not be deleted: ${(error as Error).message}`};
    }
}

/** Puts back an item `deleteItem` returned, once committed. */
export async function restoreItem({item, versions}: {item: PromptItem, versions: PromptVersion[]}): Promise<{ok: true} | {ok: false, text: string}> {
    try {
        await gatewayApi.restorePromptItem(item, versions);
        setVersions(item.itemId, versions);
        useVersionsStore.setState((state) => ({items: [item, ...state.items.filter((candidate) => candidate.itemId !== item.itemId)]}));
        return {ok: true};
    } catch (error) {
        return {ok: false, text: `"${item.itemName}" could not be put back: ${(error as Error).message}`};
    }
}
