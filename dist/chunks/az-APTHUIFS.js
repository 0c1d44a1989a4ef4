import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-3Z63J5HJ.js";import"./chunk-6LD3CJN6.js";import"./chunk-TSJX5UEF.js";import"./chunk-5LVJI5AK.js";export{c as AZ_STANDIN_SUBSCRIPTIONS_ENV,b as AZ_STANDIN_VERSION,a as AzProfile,d as azStandin};
