import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-YNFRMLMB.js";import"./chunk-MYFQRBV2.js";import"./chunk-ZPBONUWV.js";import"./chunk-CRW4DJMZ.js";import"./chunk-FM72ZH4L.js";import"./chunk-WKQJRUSJ.js";import"./chunk-ID7QODXY.js";import"./chunk-T3QCAV65.js";import"./chunk-U4WYLHCO.js";import"./chunk-QA7AGRV4.js";import"./chunk-METBHTLS.js";import"./chunk-5LVJI5AK.js";export{a as EXIT,b as PLAN_RUN_ID,e as run,d as runHeader,c as runMain};
