// Which dataset the Datasets screen shows: the one just made or picked, shared with the actions that make one elsewhere
// (a chat run added as a row opens its dataset there).
import {create} from "zustand";

export const useDatasetSelection = create<{selected: string | null, select: (id: string) => void}>()((set) => ({
    selected: null,
    select: (selected) => set({selected})
}));
