import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a}from"./chunk-FMFFIAB4.js";import"./chunk-LCCPKMBP.js";import"./chunk-5TN22RSZ.js";import"./chunk-25GHGH47.js";import"./chunk-DUXDJP2T.js";import"./chunk-ID7QODXY.js";import"./chunk-CF6FXT5F.js";import"./chunk-72O32Y6O.js";import"./chunk-5LVJI5AK.js";export{a as createHelmReleases};
