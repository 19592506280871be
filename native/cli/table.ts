// The admin commands print their tables with the shared plain-text table.
export {formatTable} from "../../base/common/textTable.ts";
