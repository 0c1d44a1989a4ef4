import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,c as b,d as c,e as d}from"./chunk-ZERPEDVL.js";import"./chunk-ID7QODXY.js";import"./chunk-5LVJI5AK.js";export{a as HELM_STANDIN_TIME_SCALE_ENV,c as HELM_STANDIN_VERSION,b as helmReleaseCounts,d as helmStandin};
