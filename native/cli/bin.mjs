#!/usr/bin/env node
// The `svc-studio` command: runs the TypeScript CLI through tsx's loader, so no build step is needed.
import {register} from "tsx/esm/api";

register();
await import("./main.ts");
