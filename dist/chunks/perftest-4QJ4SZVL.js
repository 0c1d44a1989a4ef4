import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-DCWKXLOE.js";import"./chunk-5LVJI5AK.js";export{a as GBPS_PER_MIBPS,c as headlineRow,b as parsePerftest,e as perftestCliResult,d as perftestParseCommand};
