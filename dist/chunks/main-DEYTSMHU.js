import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-KTYBRTJG.js";import"./chunk-NIARUCYP.js";import"./chunk-Q3CATEPX.js";import"./chunk-PUJFNPSU.js";import"./chunk-HUWKN2R5.js";import"./chunk-4TUYC2HY.js";import"./chunk-DAJJ6QPQ.js";import"./chunk-ID7QODXY.js";import"./chunk-4SNEABLM.js";import"./chunk-U4WYLHCO.js";import"./chunk-KSL2OGMM.js";import"./chunk-METBHTLS.js";import"./chunk-5LVJI5AK.js";export{a as EXIT,b as PLAN_RUN_ID,e as run,d as runHeader,c as runMain};
