import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-PWNWR4MI.js";import"./chunk-QJA4EFZU.js";import"./chunk-FJIGDWZM.js";import"./chunk-H4R4TYUA.js";import"./chunk-APGQ26X5.js";import"./chunk-WKQJRUSJ.js";import"./chunk-P3WUKKS6.js";import"./chunk-ID7QODXY.js";import"./chunk-4SNEABLM.js";import"./chunk-U4WYLHCO.js";import"./chunk-QA7AGRV4.js";import"./chunk-METBHTLS.js";import"./chunk-5LVJI5AK.js";export{a as EXIT,b as PLAN_RUN_ID,e as run,d as runHeader,c as runMain};
