import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-I5JI2IO2.js";import"./chunk-27HBINNX.js";import"./chunk-IS63XTET.js";import"./chunk-PUJFNPSU.js";import"./chunk-M3OUUNYY.js";import"./chunk-4TUYC2HY.js";import"./chunk-CR3ZOHZX.js";import"./chunk-ID7QODXY.js";import"./chunk-4SNEABLM.js";import"./chunk-U4WYLHCO.js";import"./chunk-KSL2OGMM.js";import"./chunk-METBHTLS.js";import"./chunk-5LVJI5AK.js";export{a as EXIT,b as PLAN_RUN_ID,e as run,d as runHeader,c as runMain};
