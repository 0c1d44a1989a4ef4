import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h}from"./chunk-UYM2ECZU.js";import"./chunk-5LVJI5AK.js";export{h as ibstatCliResult,g as ibstatParseCommand,e as infinibandPorts,c as normalizeLinkLayer,b as normalizePhysicalState,a as normalizeState,d as parseIbstat,f as unhealthyInfinibandPorts};
