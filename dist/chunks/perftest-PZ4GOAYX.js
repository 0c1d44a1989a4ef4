import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-KTTNHKYH.js";import"./chunk-5LVJI5AK.js";export{a as GBPS_PER_MIBPS,d as describePerftestError,c as headlineRow,b as parsePerftestOutput,f as perftestCliResult,e as perftestParseCommand};
