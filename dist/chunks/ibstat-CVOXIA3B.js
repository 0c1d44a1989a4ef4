import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h,i}from"./chunk-NDRROLLO.js";import"./chunk-5LVJI5AK.js";export{i as ibstatCliResult,h as ibstatParseCommand,f as infinibandPorts,c as normalizeLinkLayer,b as normalizePhysicalState,a as normalizeState,e as parseIbstat,d as parseRate,g as unhealthyInfinibandPorts};
