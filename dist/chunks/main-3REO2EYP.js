import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-5NF47YG4.js";import"./chunk-TOF4I37G.js";import"./chunk-LZTISJKE.js";import"./chunk-NNJRRI5Z.js";import"./chunk-WKQJRUSJ.js";import"./chunk-CRW4DJMZ.js";import"./chunk-ID7QODXY.js";import"./chunk-4SNEABLM.js";import"./chunk-U4WYLHCO.js";import"./chunk-QA7AGRV4.js";import"./chunk-METBHTLS.js";import"./chunk-5LVJI5AK.js";export{a as EXIT,b as PLAN_RUN_ID,e as run,d as runHeader,c as runMain};
