// Test data sets draw from the one seeded generator (mulberry32) the app uses, so they are the same on every run.
export {seededRandom} from "../../base/common/seededRandom.ts";
