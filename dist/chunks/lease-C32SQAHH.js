import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{j as a,k as b,l as c,m as d,n as e,o as f,p as g,q as h}from"./chunk-3M66MEZZ.js";import"./chunk-S62BIWAZ.js";import"./chunk-QNK5YA25.js";import"./chunk-3P3CKQ2R.js";import"./chunk-TSJX5UEF.js";import"./chunk-JZAHXY33.js";import"./chunk-C4RJR2K5.js";import"./chunk-5LVJI5AK.js";export{c as DEFAULT_LEASE_SECONDS,a as LEASE_NAME,b as LEASE_NAMESPACE,d as LeaseLostError,e as LeaseTimeoutError,g as acquireLease,f as microTime,h as releaseLease};
