import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-QDU77PIZ.js";import"./chunk-5V4V7GT7.js";import"./chunk-JQG2NHZO.js";import"./chunk-C76I23AY.js";import"./chunk-WKQJRUSJ.js";import"./chunk-44PMJ7AV.js";import"./chunk-ID7QODXY.js";import"./chunk-PZQEUDDY.js";import"./chunk-Z5IQXETH.js";import"./chunk-QA7AGRV4.js";import"./chunk-METBHTLS.js";import"./chunk-5LVJI5AK.js";export{a as EXIT,b as PLAN_RUN_ID,e as run,d as runHeader,c as runMain};
