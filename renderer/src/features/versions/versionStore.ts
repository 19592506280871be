// Saved prompts and question sets with their versions, in the app's data folder (gateway/appData.ts): the list of items
// is one small document; each item's versions are a document of their own (a chat prompt may hold images), read when
// that item is opened. Versions are never changed once saved: a change is a new version, so an experiment that ran a
// version can always say exactly what it sent.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import type {PromptVersion, PromptVersionBody} from "../../../../client/experiments/types.ts";
import {appDataStorage} from "../../gateway/appData.ts";
import {newId} from "../../ui/browser.ts";

/** What a version is opened in: the chat or Responses playground, or the Decision studio. */
export type PromptKind = "chat" | "responses" | "decision";

export const promptKindNames: Record<PromptKind, string> = {chat: "Chat", responses: "Responses", decision: "Question set"};

/** A saved prompt or question set as the list shows it; its versions count up from 1. */
export type PromptItem = {itemId: string, itemName: string, kind: PromptKind, latest: number, updatedAt: number};

export const kindOf = (prompt: PromptVersionBody): PromptKind => prompt.kind === "decision" ? "decision" : prompt.endpoint;

type VersionsState = {items: PromptItem[]};

const listKey = "svc-studio-prompt-items";
const versionsKey = (itemId: string) => `svc-studio-prompt-${itemId}`;

/** The saved items, the most recently changed first. */
export const useVersionsStore = create<VersionsState>()(persist(() => ({items: [] as PromptItem[]}), {
    name: listKey,
    version: 1,
    storage: createJSONStorage(() => appDataStorage),
    partialize: (state) => ({items: state.items}),
    merge: (saved, current) => {
        const list = (saved as {items?: unknown} | null)?.items;
        const items = (Array.isArray(list) ? list : []).filter((item): item is PromptItem =>
            typeof item?.itemId === "string" && typeof item.itemName === "string" && typeof item.latest === "number");
        return {...current, items};
    }
}));

/** Versions read per item, with the `latest` they were read at. */
const cache = new Map<string, {latest: number, versions: PromptVersion[]}>();

/** Every saved version of an item, newest first (empty when it has none). */
export function itemVersions(itemId: string): PromptVersion[] {
    const item = useVersionsStore.getState().items.find((candidate) => candidate.itemId === itemId);
    if (item === undefined) return [];
    const cached = cache.get(itemId);
    if (cached?.latest === item.latest) return cached.versions;
    let versions: PromptVersion[] = [];
    try {
        const saved = JSON.parse(appDataStorage.getItem(versionsKey(itemId)) as string ?? "[]") as unknown;
        if (Array.isArray(saved)) versions = (saved as PromptVersion[]).filter((version) => typeof version?.version === "number" && version.prompt !== undefined);
    } catch {
        // Edited by hand and unreadable: the item shows no versions rather than breaking the screen.
    }
    versions.sort((a, b) => b.version - a.version);
    cache.set(itemId, {latest: item.latest, versions});
    return versions;
}

/** The versions of an item, newest first, re-read when one is added. */
export function useItemVersions(itemId: string | null): PromptVersion[] {
    const latest = useVersionsStore((state) => state.items.find((item) => item.itemId === itemId)?.latest);
    return latest === undefined || itemId === null ? [] : itemVersions(itemId);
}

/** One version, null when there is no such item or version. */
export function getVersion(itemId: string, version: number): PromptVersion | null {
    return itemVersions(itemId).find((candidate) => candidate.version === version) ?? null;
}

/** Items of one kind (a playground's own list), the most recently changed first. */
export function itemsOfKind(items: readonly PromptItem[], kind: PromptKind): PromptItem[] {
    return items.filter((item) => item.kind === kind);
}

/**
 * Saves `prompt` as the next version of the item `itemId` (a new item named `itemName` when `itemId` is null or
 * unknown). A new version of an existing item must be of the same kind: a chat prompt's versions are chat prompts.
 */
export function saveVersion(input: {itemId: string | null, itemName: string, prompt: PromptVersionBody, note: string}): {ok: true, version: PromptVersion} | {ok: false, text: string} {
    const {items} = useVersionsStore.getState();
    const existing = input.itemId === null ? undefined : items.find((item) => item.itemId === input.itemId);
    const kind = kindOf(input.prompt);
    if (existing !== undefined && existing.kind !== kind)
        return {ok: false, text: `"${existing.itemName}" holds ${promptKindNames[existing.kind]} versions; save this ${promptKindNames[kind]} prompt as a new item.`};
    const name = (existing?.itemName ?? input.itemName).trim();
    if (name === "") return {ok: false, text: "Give the prompt a name."};
    const itemId = existing?.itemId ?? newId();
    const previous = existing === undefined ? [] : itemVersions(itemId);
    const version: PromptVersion = {
        itemId,
        itemName: name,
        version: (previous[0]?.version ?? 0) + 1,
        note: input.note.trim(),
        createdAt: Date.now(),
        prompt: structuredClone(input.prompt)
    };
    const versions = [version, ...previous];
    appDataStorage.setItem(versionsKey(itemId), JSON.stringify([...versions].reverse()));
    cache.set(itemId, {latest: version.version, versions});
    const item: PromptItem = {itemId, itemName: name, kind, latest: version.version, updatedAt: version.createdAt};
    useVersionsStore.setState((state) => ({items: [item, ...state.items.filter((candidate) => candidate.itemId !== itemId)]}));
    return {ok: true, version};
}

/** Deletes an item with all its versions; returns them, so an Undo can put them back with `restoreItem`. */
export function deleteItem(itemId: string): {item: PromptItem, versions: PromptVersion[]} | null {
    const item = useVersionsStore.getState().items.find((candidate) => candidate.itemId === itemId);
    if (item === undefined) return null;
    const versions = itemVersions(itemId);
    appDataStorage.removeItem(versionsKey(itemId));
    cache.delete(itemId);
    useVersionsStore.setState((state) => ({items: state.items.filter((candidate) => candidate.itemId !== itemId)}));
    return {item, versions};
}

/** Puts back an item `deleteItem` returned. */
export function restoreItem({item, versions}: {item: PromptItem, versions: PromptVersion[]}): void {
    appDataStorage.setItem(versionsKey(item.itemId), JSON.stringify([...versions].reverse()));
    cache.set(item.itemId, {latest: item.latest, versions});
    useVersionsStore.setState((state) => ({items: [item, ...state.items.filter((candidate) => candidate.itemId !== item.itemId)]}));
}
