import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-GLHERN4Q.js";import"./chunk-AMYIPHPB.js";import"./chunk-O7Y5D6JS.js";import"./chunk-LQNJAQL2.js";import"./chunk-WKQJRUSJ.js";import"./chunk-MLLVUSIV.js";import"./chunk-ID7QODXY.js";import"./chunk-4SNEABLM.js";import"./chunk-U4WYLHCO.js";import"./chunk-QA7AGRV4.js";import"./chunk-METBHTLS.js";import"./chunk-5LVJI5AK.js";export{a as EXIT,b as PLAN_RUN_ID,e as run,d as runHeader,c as runMain};
