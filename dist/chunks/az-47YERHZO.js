import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-AFRGKUMN.js";import"./chunk-CJCI66YI.js";import"./chunk-IFFFNCZ5.js";import"./chunk-5LVJI5AK.js";export{c as AZ_STANDIN_SUBSCRIPTIONS_ENV,b as AZ_STANDIN_VERSION,a as AzProfile,d as azStandin};
