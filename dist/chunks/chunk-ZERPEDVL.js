import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a as q}from"./chunk-ID7QODXY.js";import{e as j}from"./chunk-5LVJI5AK.js";import Tn from"node:https";import Rn from"node:http";var L=[{apiVersion:"v1",kind:"Namespace",plural:"namespaces",namespaced:!1},{apiVersion:"v1",kind:"Secret",plural:"secrets",namespaced:!0},{apiVersion:"v1",kind:"ConfigMap",plural:"configmaps",namespaced:!0},{apiVersion:"v1",kind:"ServiceAccount",plural:"serviceaccounts",namespaced:!0},{apiVersion:"apps/v1",kind:"Deployment",plural:"deployments",namespaced:!0},{apiVersion:"apps/v1",kind:"DaemonSet",plural:"daemonsets",namespaced:!0},{apiVersion:"apiextensions.k8s.io/v1",kind:"CustomResourceDefinition",plural:"customresourcedefinitions",namespaced:!1},{apiVersion:"nvidia.com/v1",kind:"ClusterPolicy",plural:"clusterpolicies",namespaced:!1},{apiVersion:"nfd.k8s-sigs.io/v1alpha1",kind:"NodeFeatureRule",plural:"nodefeaturerules",namespaced:!1}];function x(e,n){let t=L.find(i=>i.apiVersion===e&&i.kind===n);if(!t)throw new Error(`resource mapping not found for kind "${n}" in version "${e}"`);return t}var S=class extends Error{constructor(t,i,r,o){super(r);this.code=t;this.reason=i;this.retryAfterSeconds=o}code;reason;retryAfterSeconds};function Gn(e){return e instanceof S&&e.code===404}var H=class{constructor(n){this.kc=n}kc;contextNamespace(){return this.kc.namespace}path(n,t,i){let r=n.apiVersion.includes("/")?`/apis/${n.apiVersion}`:`/api/${n.apiVersion}`,o=n.namespaced&&t?`/namespaces/${encodeURIComponent(t)}`:"";return`${r}${o}/${n.plural}${i?`/${encodeURIComponent(i)}`:""}`}async request(n,t,i){for(let r=0;;r++)try{return await this.requestOnce(n,t,i)}catch(o){let s=o instanceof S?o.retryAfterSeconds:void 0;if(s===void 0||r>=10)throw o;await new Promise(a=>setTimeout(a,s*1e3))}}async requestOnce(n,t,i){let r=new URL(t,this.kc.server),{headers:o,...s}=await this.kc.connection(),a={method:n,hostname:r.hostname,port:r.port,path:r.pathname+r.search,headers:{Accept:"application/json",...o},...s},d=i===void 0?void 0:Buffer.from(JSON.stringify(i));d&&(a.headers={...a.headers,"Content-Type":"application/json","Content-Length":d.length});let p=r.protocol==="http:"?Rn:Tn,{status:c,text:l,retryAfter:u}=await new Promise((f,v)=>{let g=p.request(a,I=>{let z=[];I.on("data",qn=>z.push(qn)),I.on("end",()=>f({status:I.statusCode??0,text:Buffer.concat(z).toString("utf8"),retryAfter:I.headers["retry-after"]})),I.on("error",v)});g.on("error",I=>v(new Error(`Kubernetes cluster unreachable: Get "${r.href}": ${I.message}`))),d&&g.write(d),g.end()}),m;try{m=l?JSON.parse(l):void 0}catch{m=void 0}if(c<200||c>299){let f=m?.message??`the server responded with status ${c}: ${l.slice(0,200)}`,v=(c===429||c>=500)&&u&&/^\d+$/.test(u)?Number(u):void 0;throw new S(c,m?.reason??"Unknown",f,v)}return m}get(n,t,i){return this.request("GET",this.path(n,t,i))}async tryGet(n,t,i){try{return await this.get(n,t,i)}catch(r){if(Gn(r))return;throw r}}async list(n,t,i){let r=[],o;do{let s=new URLSearchParams;i&&s.set("labelSelector",i),s.set("limit","500"),o&&s.set("continue",o);let a=await this.request("GET",`${this.path(n,t)}?${s.toString()}`);r.push(...a?.items??[]),o=a?.metadata?.continue||void 0}while(o);return r}create(n){let t=x(n.apiVersion,n.kind);return this.request("POST",this.path(t,n.metadata.namespace),n)}replace(n){let t=x(n.apiVersion,n.kind);return this.request("PUT",this.path(t,n.metadata.namespace,n.metadata.name),n)}async delete(n,t,i){await this.request("DELETE",this.path(n,t,i),{kind:"DeleteOptions",apiVersion:"v1",propagationPolicy:"Background"})}};var Ke=j(q(),1);import{execFile as Vn}from"node:child_process";import{readFileSync as Oe}from"node:fs";import O from"node:path";var $e="Kubernetes cluster unreachable: invalid configuration: no configuration has been provided",Ln=["client.authentication.k8s.io/v1","client.authentication.k8s.io/v1beta1"];function le(e,n,t){return!Array.isArray(e)||!t?void 0:e.find(r=>r?.name===t)?.[n]}var _=class e{constructor(n,t,i,r,o){this.dir=n;this.server=t;this.namespace=i;this.cluster=r;this.user=o}dir;server;namespace;cluster;user;execCredential;fixed;static load(n,t,i){let r=(n.KUBECONFIG??"").split(O.delimiter).find(l=>l.length>0),o=t||r||`${n.HOME??""}/.kube/config`,s;try{s=(0,Ke.parse)(Oe(o,"utf8"))??{}}catch(l){let u=l.code;throw u==="ENOENT"&&!t&&!r?new Error($e):new Error(`Kubernetes cluster unreachable: ${o}: ${u??l.message}`)}let a=i||s["current-context"],d=le(s.contexts,"context",a);if(i&&!d)throw new Error(`Kubernetes cluster unreachable: context "${i}" does not exist`);let p=le(s.clusters,"cluster",d?.cluster);if(!d||!p?.server)throw new Error($e);let c=le(s.users,"user",d.user)??{};return new e(O.dirname(O.resolve(o)),new URL(p.server),d.namespace||"default",p,c)}file(n){return Oe(O.resolve(this.dir,n))}data(n,t){return n?Buffer.from(n,"base64"):t?this.file(t):void 0}readFixed(){let n=this.cluster,t=this.user;return{tls:{ca:this.data(n["certificate-authority-data"],n["certificate-authority"]),cert:this.data(t["client-certificate-data"],t["client-certificate"]),key:this.data(t["client-key-data"],t["client-key"]),rejectUnauthorized:n["insecure-skip-tls-verify"]!==!0,servername:n["tls-server-name"]},token:t.token||(t.tokenFile?this.file(t.tokenFile).toString("utf8").trim():void 0)}}async connection(){let n=this.user,t=this.fixed??=this.readFixed(),i={...t.tls,headers:{}},r=t.token;if(n.exec){let o=await this.runExec(n.exec);r=o.token??r,o.cert&&o.key&&Object.assign(i,{cert:o.cert,key:o.key})}return r?i.headers.Authorization=`Bearer ${r}`:n.username!==void 0&&(i.headers.Authorization=`Basic ${Buffer.from(`${n.username}:${n.password??""}`).toString("base64")}`),i}async runExec(n){let t=this.execCredential;if(t&&(t.expiresAt===void 0||t.expiresAt>Date.now()))return t;let i=n.apiVersion??"";if(!Ln.includes(i))throw new Error(`exec plugin: invalid apiVersion "${i}"`);let r=n.command??"",o=r.includes("/")?O.resolve(this.dir,r):r,s={...process.env};for(let l of n.env??[])l?.name&&(s[l.name]=l.value??"");s.KUBERNETES_EXEC_INFO=JSON.stringify({kind:"ExecCredential",apiVersion:i,spec:{interactive:!1}});let a=await new Promise((l,u)=>Vn(o,n.args??[],{env:s,maxBuffer:4*1024*1024},(m,f)=>{if(!m)return l(f);let v=m.code;u(new Error(typeof v=="number"?`getting credentials: exec: executable ${r} failed with exit code ${v}`:`getting credentials: exec: executable ${r} not found`))})),d;try{d=JSON.parse(a)}catch{throw new Error("getting credentials: decoding stdout: invalid ExecCredential")}if(d?.apiVersion!==i)throw new Error(`getting credentials: exec plugin is configured to use API version ${i}, plugin returned version ${d?.apiVersion}`);let p=d.status;if(!p)throw new Error("getting credentials: exec plugin didn't return a status field");if(!p.token&&!p.clientCertificateData&&!p.clientKeyData)throw new Error("getting credentials: exec plugin didn't return a token or cert/key pair");if(!p.clientCertificateData!=!p.clientKeyData)throw new Error("getting credentials: exec plugin returned only certificate or key, not both");let c=p.expirationTimestamp?Date.parse(p.expirationTimestamp):void 0;return this.execCredential={token:p.token||void 0,cert:p.clientCertificateData?Buffer.from(p.clientCertificateData):void 0,key:p.clientKeyData?Buffer.from(p.clientKeyData):void 0,expiresAt:Number.isFinite(c)?c:void 0},this.execCredential}};var T=j(q(),1);import{existsSync as ze,mkdirSync as He,readFileSync as _e,writeFileSync as fe}from"node:fs";import E from"node:path";var he="https://helm.ngc.nvidia.com/nvidia",Fe={"v25.10.1":{driver:"580.95.05",toolkit:"v1.18.1",devicePlugin:"v0.18.1"},"v26.3.3":{driver:"580.126.20",toolkit:"v1.19.1",devicePlugin:"v0.19.3"},"v26.7.0":{driver:"595.91.07",toolkit:"v1.20.0",devicePlugin:"v0.20.0"}},ue={key:"nvidia.com/gpu",operator:"Exists",effect:"NoSchedule"},me={key:"node-role.kubernetes.io/control-plane",operator:"Equal",value:"",effect:"NoSchedule"};function On(e){return{nfd:{enabled:!0,deployNodeFeatureRules:!0},upgradeCRDs:!0,sriovNetworkOperator:{enabled:!1},maintenanceOperator:{enabled:!1},"node-feature-discovery":{enableNodeFeatureApi:!0,featureGates:{NodeFeatureAPI:!0},postDeleteCleanup:!1,image:{repository:"nvcr.io/nvidia/mellanox/node-feature-discovery",tag:`network-operator-${e}`,pullPolicy:"IfNotPresent"},master:{serviceAccount:{name:"node-feature-discovery",create:!0},config:{extraLabelNs:["nvidia.com"]}},gc:{enable:!0,replicaCount:1,serviceAccount:{name:"node-feature-discovery",create:!1}},worker:{serviceAccount:{name:"node-feature-discovery",create:!1},tolerations:[{key:"node-role.kubernetes.io/master",operator:"Exists",effect:"NoSchedule"},{key:"node-role.kubernetes.io/control-plane",operator:"Exists",effect:"NoSchedule"},ue],config:{sources:{pci:{deviceClassWhitelist:["0300","0302"],deviceLabelFields:["vendor"]}}}}},operator:{resources:{limits:{cpu:"500m",memory:"128Mi"},requests:{cpu:"5m",memory:"64Mi"}},tolerations:[{key:"node-role.kubernetes.io/master",operator:"Equal",value:"",effect:"NoSchedule"},me],nodeSelector:{},repository:"nvcr.io/nvidia/cloud-native",image:"network-operator",nameOverride:"",fullnameOverride:"",cniBinDirectory:"/opt/cni/bin",cniNetworkDirectory:"/etc/cni/net.d",useDTK:!0,admissionController:{enabled:!1,useCertManager:!0},ofedDriver:{initContainer:{enable:!0,repository:"nvcr.io/nvidia/mellanox",image:"network-operator-init-container",version:`network-operator-${e}`}}},imagePullSecrets:[]}}var w=(e,n,t,i={})=>({repository:e,image:n,version:t,imagePullPolicy:"IfNotPresent",imagePullSecrets:[],env:[],resources:{},...i});function $n(e){let n=Fe[e]??Fe["v26.7.0"];return{platform:{openshift:!1},nfd:{enabled:!0,nodefeaturerules:!1},psa:{enabled:!1},cdi:{enabled:!0,nriPluginEnabled:!1},sandboxWorkloads:{enabled:!1,defaultWorkload:"container",mode:"kubevirt"},hostPaths:{rootFS:"/",driverInstallDir:"/run/nvidia/driver"},daemonsets:{labels:{},annotations:{},priorityClassName:"system-node-critical",tolerations:[ue],updateStrategy:"RollingUpdate",rollingUpdate:{maxUnavailable:"1"}},validator:{repository:"nvcr.io/nvidia",image:"gpu-operator",imagePullPolicy:"IfNotPresent",plugin:{env:[]}},operator:{repository:"nvcr.io/nvidia",image:"gpu-operator",imagePullPolicy:"IfNotPresent",imagePullSecrets:[],priorityClassName:"system-node-critical",runtimeClass:"nvidia",use_ocp_driver_toolkit:!1,cleanupCRD:!1,upgradeCRD:!0,tolerations:[me],logging:{timeEncoding:"epoch",level:"info",develMode:!1},resources:{limits:{cpu:"500m",memory:"350Mi"},requests:{cpu:"200m",memory:"100Mi"}}},mig:{strategy:"single"},driver:{enabled:!0,nvidiaDriverCRD:{enabled:!1,deployDefaultCR:!0,driverType:"gpu",nodeSelector:{}},kernelModuleType:"auto",usePrecompiled:!1,...w("nvcr.io/nvidia","driver",n.driver),startupProbe:{initialDelaySeconds:60,periodSeconds:10,timeoutSeconds:60,failureThreshold:120},rdma:{enabled:!1,useHostMofed:!1},upgradePolicy:{autoUpgrade:!0,maxParallelUpgrades:1,maxUnavailable:"25%",waitForCompletion:{timeoutSeconds:0,podSelector:""},gpuPodDeletion:{force:!1,timeoutSeconds:300,deleteEmptyDir:!1},drain:{enable:!1,force:!1,podSelector:"",timeoutSeconds:300,deleteEmptyDir:!1}},manager:{repository:"nvcr.io/nvidia/cloud-native",image:"k8s-driver-manager",version:"v0.11.0",imagePullPolicy:"IfNotPresent",env:[]},repoConfig:{configMapName:""},certConfig:{name:""},licensingConfig:{secretName:"",nlsEnabled:!0},virtualTopology:{config:""},kernelModuleConfig:{name:""},secretEnv:"",hostNetwork:!1},toolkit:{enabled:!0,...w("nvcr.io/nvidia/k8s","container-toolkit",n.toolkit),installDir:"/usr/local/nvidia",hostNetwork:!1},devicePlugin:{enabled:!0,...w("nvcr.io/nvidia","k8s-device-plugin",n.devicePlugin),args:[],config:{create:!1,name:"",default:"",data:{}},mps:{root:"/run/nvidia/mps"},hostNetwork:!1},dcgm:{enabled:!1,...w("nvcr.io/nvidia/cloud-native","dcgm","4.5.2-1-ubuntu22.04"),hostNetwork:!1},dcgmExporter:{enabled:!0,...w("nvcr.io/nvidia/k8s","dcgm-exporter","4.5.3-4.8.2-distroless"),service:{internalTrafficPolicy:"Cluster"},serviceMonitor:{enabled:!1,interval:"15s",honorLabels:!1,additionalLabels:{},relabelings:[]}},gfd:{enabled:!0,...w("nvcr.io/nvidia","k8s-device-plugin",n.devicePlugin),hostNetwork:!1},migManager:{enabled:!0,...w("nvcr.io/nvidia/cloud-native","k8s-mig-manager","v0.14.2"),config:{default:"all-disabled",create:!1,name:"",data:{}},gpuClientsConfig:{name:""},hostNetwork:!1},nodeStatusExporter:{enabled:!1,repository:"nvcr.io/nvidia",image:"gpu-operator",imagePullPolicy:"IfNotPresent"},gds:{enabled:!1,...w("nvcr.io/nvidia/cloud-native","nvidia-fs","2.27.3")},gdrcopy:{enabled:!1,...w("nvcr.io/nvidia/cloud-native","gdrdrv","v2.5.2")},vgpuManager:{enabled:!1,...w("","vgpu-manager","")},vgpuDeviceManager:{enabled:!0,...w("nvcr.io/nvidia/cloud-native","vgpu-device-manager","v0.4.2"),config:{name:"",default:"default"}},vfioManager:{enabled:!0,...w("nvcr.io/nvidia/cloud-native","k8s-driver-manager","v0.11.0")},kataManager:{enabled:!1,config:{}},sandboxDevicePlugin:{enabled:!0,...w("nvcr.io/nvidia","kubevirt-gpu-device-plugin","v1.5.0")},ccManager:{enabled:!0,defaultMode:"on",...w("nvcr.io/nvidia/cloud-native","k8s-cc-manager","v0.4.0")},extraObjects:[],"node-feature-discovery":{priorityClassName:"system-node-critical",image:{repository:"registry.k8s.io/nfd/node-feature-discovery",tag:"v0.18.3",pullPolicy:"IfNotPresent"},gc:{enable:!0,replicaCount:1,serviceAccount:{name:"node-feature-discovery",create:!1}},worker:{serviceAccount:{name:"node-feature-discovery",create:!1},tolerations:[me,ue],config:{sources:{pci:{deviceClassWhitelist:["02","0200","0207","0300","0302"],deviceLabelFields:["vendor"]}}}},master:{serviceAccount:{name:"node-feature-discovery",create:!0},config:{extraLabelNs:["nvidia.com"]}}}}}var D={"network-operator":{name:"network-operator",description:"Nvidia network operator",home:"https://github.com/Mellanox/network-operator",kubeVersion:">= 1.21.0-0",versions:[{version:"v26.4.1",appVersion:"v26.4.1",created:"2026-07-24T10:00:00Z"},{version:"v26.4.0",appVersion:"v26.4.0",created:"2026-07-14T10:00:00Z"},{version:"v26.1.1",appVersion:"v26.1.1",created:"2026-04-08T10:00:00Z"},{version:"v26.1.0",appVersion:"v26.1.0",created:"2026-02-24T10:00:00Z"},{version:"v25.10.0",appVersion:"v25.10.0",created:"2025-10-28T10:00:00Z"}],defaults:On},"gpu-operator":{name:"gpu-operator",description:"NVIDIA GPU Operator creates/configures/manages GPUs atop Kubernetes",home:"https://github.com/NVIDIA/gpu-operator",kubeVersion:">= 1.16.0-0",versions:[{version:"v26.7.0",appVersion:"v26.7.0",created:"2026-08-20T10:00:00Z"},{version:"v26.3.3",appVersion:"v26.3.3",created:"2026-06-23T10:00:00Z"},{version:"v25.10.1",appVersion:"v25.10.1",created:"2025-12-09T10:00:00Z"}],defaults:$n}};function Ue(e,n){let t=e.replace(/^v/,"").split(/[.-]/).map(r=>Number(r)||0),i=n.replace(/^v/,"").split(/[.-]/).map(r=>Number(r)||0);for(let r=0;r<Math.max(t.length,i.length);r++){let o=(t[r]??0)-(i[r]??0);if(o!==0)return o}return 0}function Ze(e,n){let t=e.HOME??"/root",i=e.HELM_CONFIG_HOME||E.join(e.XDG_CONFIG_HOME||E.join(t,".config"),"helm"),r=e.HELM_CACHE_HOME||E.join(e.XDG_CACHE_HOME||E.join(t,".cache"),"helm");return{repositoryConfig:n.repositoryConfig||e.HELM_REPOSITORY_CONFIG||E.join(i,"repositories.yaml"),repositoryCache:n.repositoryCache||e.HELM_REPOSITORY_CACHE||E.join(r,"repository")}}var Z=e=>e.replace(/\/+$/,"");function $(e){return ze(e.repositoryConfig)?((0,T.parse)(_e(e.repositoryConfig,"utf8"))?.repositories??[]).map(t=>({name:t.name,url:t.url})):[]}function Kn(e,n){He(E.dirname(e.repositoryConfig),{recursive:!0});let t={apiVersion:"",generated:"0001-01-01T00:00:00Z",repositories:n.map(i=>({caFile:"",certFile:"",insecure_skip_tls_verify:!1,keyFile:"",name:i.name,pass_credentials_all:!1,password:"",url:i.url,username:""}))};fe(e.repositoryConfig,(0,T.stringify)(t),{mode:384})}function Fn(e){if(Z(e)!==he)throw new Error(`looks like "${e}" is not a valid chart repository or cannot be reached: Get "${Z(e)}/index.yaml": dial tcp: lookup ${new URL(e).hostname}: no such host`);let n={};for(let t of Object.values(D))n[t.name]=t.versions.map(i=>({apiVersion:"v2",appVersion:i.appVersion,created:i.created,description:t.description,home:t.home,kubeVersion:t.kubeVersion,name:t.name,urls:[`${he}/charts/${t.name}-${i.version}.tgz`],version:i.version}));return(0,T.stringify)({apiVersion:"v1",entries:n,generated:"2026-08-20T12:00:00Z"})}function Be(e,n){let t=Fn(n.url);He(e.repositoryCache,{recursive:!0}),fe(E.join(e.repositoryCache,`${n.name}-index.yaml`),t);let i=Object.keys(D).join(`
`)+`
`;fe(E.join(e.repositoryCache,`${n.name}-charts.txt`),i)}function We(e,n,t,i){let r=$(e),o=r.find(a=>a.name===n);if(o&&!i){if(Z(o.url)===Z(t))return`"${n}" already exists with the same configuration, skipping`;throw new Error(`repository name (${n}) already exists, please specify a different name`)}let s={name:n,url:t};return Be(e,s),Kn(e,[...r.filter(a=>a.name!==n),s]),`"${n}" has been added to your repositories`}function Xe(e,n){let t=$(e);if(t.length===0)throw new Error("no repositories found. You must add one before updating");let i=n.length?t.filter(o=>n.includes(o.name)):t;for(let o of n)if(!t.some(s=>s.name===o))throw new Error(`no repositories found matching '${o}'.  Nothing will be updated`);let r=["Hang tight while we grab the latest from your chart repositories..."];for(let o of i)try{Be(e,o),r.push(`...Successfully got an update from the "${o.name}" chart repository`)}catch(s){r.push(`...Unable to get an update from the "${o.name}" chart repository (${o.url}):
	${s.message}`)}return r.push("Update Complete. \u2388Happy Helming!\u2388"),r}function B(e,n,t){let i=n.indexOf("/");if(i<0)throw new Error(`non-absolute URLs should be in form of repo_name/path_to_chart, got: ${n}`);let r=n.slice(0,i),o=n.slice(i+1);if(!$(e).find(g=>g.name===r))throw new Error(`repo ${r} not found`);let a=E.join(e.repositoryCache,`${r}-index.yaml`);if(!ze(a))throw new Error(`no cached repo found. (try 'helm repo update'): open ${a}: no such file or directory`);let p=(0,T.parse)(_e(a,"utf8")).entries?.[o],c=D[o],l=g=>new Error(`chart "${o}" matching ${t} not found in ${r} index. (try 'helm repo update'): ${g}`);if(!p||!c)throw l("no chart name found");let u=t.trim().replace(/^v/,""),m=p.map(g=>g.version).sort((g,I)=>-Ue(g,I)),f=u?m.find(g=>g.replace(/^v/,"")===u):m[0],v=f?c.versions.find(g=>g.version===f):void 0;if(!v)throw l(`no chart version found for ${o}-${t}`);return{chart:c,version:v}}var Ye="HELM_STANDIN_TIME_SCALE",Un=2e3,W=class{constructor(n,t,i){this.env=n;this.io=t;this.flags=i;this.paths=Ze(n,{repositoryConfig:i["repository-config"],repositoryCache:i["repository-cache"]});let r=Number(n[Ye]);this.timeScale=Number.isFinite(r)&&r>0?r:1}env;io;flags;kubeRest;paths;timeScale;get kube(){if(!this.kubeRest){let n=_.load(this.env,this.flags.kubeconfig,this.flags["kube-context"]||this.env.HELM_KUBECONTEXT);this.kubeRest=new H(n)}return this.kubeRest}get namespace(){let n=this.flags.namespace;if(n)return n;if(this.env.HELM_NAMESPACE)return this.env.HELM_NAMESPACE;try{return this.kube.contextNamespace()}catch{return"default"}}get pollMs(){return Math.max(10,Math.round(Un*this.timeScale))}out(n){this.io.stdout(n.endsWith(`
`)?n:`${n}
`)}debug=n=>{this.flags.debug&&this.io.stderr(`${n}
`)}};var h=class extends Error{};var zn={ns:1,us:1e3,\u00B5s:1e3,ms:1e6,s:1e9,m:6e10,h:36e11},C=class extends Error{};function Je(e){if(e==="0")return 0;let n=e,t=1;if((n.startsWith("-")||n.startsWith("+"))&&(t=n.startsWith("-")?-1:1,n=n.slice(1)),!n)throw new C(`time: invalid duration "${e}"`);let i=/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y,r=0,o=0;for(;o<n.length;){i.lastIndex=o;let s=i.exec(n);if(!s)throw/^\d+(?:\.\d*)?$/.test(n.slice(o))?new C(`time: missing unit in duration "${e}"`):new C(`time: invalid duration "${e}"`);r+=Number(s[1])*zn[s[2]],o=i.lastIndex}return t*Math.round(r)}var ye=[{name:"kubeconfig",kind:"string"},{name:"kube-context",kind:"string"},{name:"namespace",short:"n",kind:"string"},{name:"debug",kind:"bool"},{name:"repository-config",kind:"string"},{name:"repository-cache",kind:"string"},{name:"registry-config",kind:"string"},{name:"burst-limit",kind:"int"},{name:"qps",kind:"string"},{name:"help",short:"h",kind:"bool"}],P=class extends Error{};function Hn(e){try{return Je(e)/1e6}catch(n){throw n instanceof C?new P(n.message):n}}function _n(e,n,t){if(e.kind==="bool"){let i=n.toLowerCase();if(["1","t","true"].includes(i))return!0;if(["0","f","false"].includes(i))return!1;throw new P(`invalid argument "${n}" for "${t}" flag: strconv.ParseBool: parsing "${n}": invalid syntax`)}if(e.kind==="int"){if(!/^[+-]?\d+$/.test(n))throw new P(`invalid argument "${n}" for "${t}" flag: strconv.ParseInt: parsing "${n}": invalid syntax`);return Number(n)}if(e.kind==="duration")try{return Hn(n)}catch(i){throw new P(`invalid argument "${n}" for "${t}" flag: ${i.message}`)}return n}function b(e,n){let t=[...n,...ye],i=new Map(t.map(d=>[d.name,d])),r=new Map(t.filter(d=>d.short).map(d=>[d.short,d])),o={},s=[],a=(d,p,c)=>{let l=_n(d,p,c);if(d.kind==="array"){let u=o[d.name]??[];o[d.name]=[...u,p]}else o[d.name]=l};for(let d=0;d<e.length;d++){let p=e[d];if(p==="--"){s.push(...e.slice(d+1));break}if(p.startsWith("--")&&p.length>2){let c=p.indexOf("="),l=c>=0?p.slice(2,c):p.slice(2),u=i.get(l);if(!u)throw new P(`unknown flag: --${l}`);let m=`--${l}`;if(c>=0)a(u,p.slice(c+1),m);else if(u.kind==="bool")a(u,"true",m);else{if(d+1>=e.length)throw new P(`flag needs an argument: --${l}`);a(u,e[++d],m)}continue}if(p.startsWith("-")&&p.length>1){let c=1;for(;c<p.length;){let l=p[c],u=r.get(l);if(!u)throw new P(`unknown shorthand flag: '${l}' in ${p}`);let m=`-${l}, --${u.name}`,f=p.slice(c+1);if(u.kind==="bool"){if(f.startsWith("=")){a(u,f.slice(1),m);break}a(u,"true",m),c++;continue}if(f.length>0)a(u,f.startsWith("=")?f.slice(1):f,m);else{if(d+1>=e.length)throw new P(`flag needs an argument: '${l}' in -${l}`);a(u,e[++d],m)}break}continue}s.push(p)}return{args:s,flags:o}}var Ie=j(q(),1);var Zn=["Sun","Mon","Tue","Wed","Thu","Fri","Sat"],Bn=["Jan","Feb","Mar","Apr","May","Jun","Jul","Aug","Sep","Oct","Nov","Dec"],N=(e,n=2)=>String(e).padStart(n,"0");function Wn(e){let n=new Date(e),t=String(n.getUTCDate()).padStart(2," "),i=`${N(n.getUTCHours())}:${N(n.getUTCMinutes())}:${N(n.getUTCSeconds())}`;return`${Zn[n.getUTCDay()]} ${Bn[n.getUTCMonth()]} ${t} ${i} ${n.getUTCFullYear()}`}function Qe(e){let n=new Date(e),t=n.getUTCMilliseconds(),i=t?`.${N(t,3)}`.replace(/0+$/,""):"";return`${n.getUTCFullYear()}-${N(n.getUTCMonth()+1)}-${N(n.getUTCDate())} ${N(n.getUTCHours())}:${N(n.getUTCMinutes())}:${N(n.getUTCSeconds())}${i} +0000 UTC`}function X(e){let n=[`NAME: ${e.name}`,`LAST DEPLOYED: ${Wn(e.info.last_deployed)}`,`NAMESPACE: ${e.namespace}`,`STATUS: ${e.info.status}`,`REVISION: ${e.version}`,"TEST SUITE: None"];return e.info.notes&&n.push("NOTES:",e.info.notes.trimEnd()),n.join(`
`)+`
`}import{gunzipSync as Xn,gzipSync as Yn}from"node:zlib";var Y=L.find(e=>e.kind==="Secret"),J=(e,n)=>`sh.helm.release.v1.${e}.v${n}`;function Jn(e){let n=Yn(Buffer.from(JSON.stringify(e))).toString("base64");return Buffer.from(n).toString("base64")}var Qn=Buffer.from([31,139,8]);function en(e){let n=Buffer.from(Buffer.from(e,"base64").toString("utf8"),"base64"),t=n.subarray(0,3).equals(Qn)?Xn(n):n;return JSON.parse(t.toString("utf8"))}function nn(e){return{apiVersion:"v1",kind:"Secret",type:"helm.sh/release.v1",metadata:{name:J(e.name,e.version),namespace:e.namespace,labels:{name:e.name,owner:"helm",status:e.info.status,version:String(e.version),modifiedAt:String(Math.floor(Date.now()/1e3))}},data:{release:Jn(e)}}}var K=()=>new Date().toISOString(),k=class{constructor(n){this.kube=n}kube;async history(n,t){return(await this.kube.list(Y,t,`owner=helm,name=${n}`)).map(r=>en(r.data?.release??"")).filter(r=>r.name===n).sort((r,o)=>r.version-o.version)}async last(n,t){let i=await this.history(n,t);return i[i.length-1]}async all(n){return(await this.kube.list(Y,n,"owner=helm")).map(i=>en(i.data?.release??""))}async create(n){try{await this.kube.create(nn(n))}catch(t){let i=t;throw i.code===409?new Error(`create: failed to create: secrets "${J(n.name,n.version)}" already exists`):new Error(`create: failed to create: ${i.message}`)}}async update(n){let t=await this.kube.get(Y,n.namespace,J(n.name,n.version)),i=nn(n);i.metadata.resourceVersion=t.metadata.resourceVersion;try{await this.kube.replace(i)}catch(r){throw new Error(`update: failed to update: ${r.message}`)}}async remove(n){await this.kube.delete(Y,n.namespace,J(n.name,n.version))}};function et(e){let n=0,t=0;for(let i of e){if(i?.type!=="helm.sh/release.v1"||i?.metadata?.labels?.owner!=="helm")continue;let r=Number(i.metadata.labels.version);r===1?n++:r>1&&t++}return{installs:n,upgrades:t}}var rn=j(q(),1);import{readFileSync as nt}from"node:fs";var y=e=>typeof e=="object"&&e!==null&&!Array.isArray(e);function be(e,n){if(n)return e;let t=e.toLowerCase();if(t==="true")return!0;if(t==="false")return!1;if(t==="null")return null;if(e==="0")return 0;if(e.length>0&&e[0]!=="0"&&/^[+-]?\d+$/.test(e)){let i=Number(e);if(Number.isSafeInteger(i))return i}return e}var ge=class{constructor(n){this.text=n}text;pos=0;until(n){let t="";for(;this.pos<this.text.length;){let i=this.text[this.pos++];if(i==="\\"&&this.pos<this.text.length){t+=this.text[this.pos++];continue}if(n.includes(i))return{text:t,stop:i};t+=i}return{text:t,stop:""}}peek(){return this.text[this.pos]??""}};function Q(e,n,t){if(n<0)throw new Error(`negative ${n} index not allowed`);if(n>65536)throw new Error(`index of ${n} is greater than maximum supported index 65536`);for(;e.length<=n;)e.push(null);return e[n]=t,e}function on(e,n){e.pos++;let t=[];for(;;){let{text:i,stop:r}=e.until(",}");if(r==="")throw new Error("list must terminate with '}'");if(t.push(be(i,n)),r==="}"){let o=e.peek();if(o===",")e.pos++;else if(o!=="")throw new Error(`unexpected character after list: "${o}"`);return t}}}function ve(e,n,t){let{text:i,stop:r}=e.until("=[,.");switch(r){case"":if(i.length>0)throw new Error(`key "${i}" has no value`);return;case",":throw new Error(`key "${i}" has no value (cannot end with ,)`);case"=":{if(e.peek()==="{"){n[i]=on(e,t);return}let{text:o}=e.until(",");n[i]=be(o,t);return}case".":{if(!i)throw new Error('key "" has no value');let o=y(n[i])?n[i]:{};n[i]=o,ve(e,o,t);return}case"[":{let o=Array.isArray(n[i])?n[i]:[];n[i]=sn(e,o,t);return}}}function sn(e,n,t){let{text:i,stop:r}=e.until("]");if(r!=="]"||!/^\d+$/.test(i))throw new Error(`failed to parse index: "${i}"`);let o=Number(i),s=e.text[e.pos++]??"";if(s==="="){if(e.peek()==="{")return Q(n,o,on(e,t));let{text:a}=e.until(",");return Q(n,o,be(a,t))}if(s==="."){let a=y(n[o])?n[o]:{};return ve(e,a,t),Q(n,o,a)}if(s==="["){let a=Array.isArray(n[o])?n[o]:[];return Q(n,o,sn(e,a,t))}throw new Error(`key "${e.text}" has no value`)}function tn(e,n,t=!1){let i=new ge(e);for(;i.pos<e.length;)ve(i,n,t)}function an(e,n){let t={...e};for(let[i,r]of Object.entries(n))y(r)&&y(t[i])?t[i]=an(t[i],r):t[i]=r;return t}function tt(e){let n;try{n=nt(e,"utf8")}catch{throw new Error(`open ${e}: no such file or directory`)}let t;try{t=(0,rn.parse)(n,{version:"1.1"})}catch(i){throw new Error(`failed to parse ${e}: error converting YAML to JSON: ${i.message.split(`
`)[0]}`)}if(t==null)return{};if(!y(t))throw new Error(`failed to parse ${e}: error unmarshaling JSON: cannot unmarshal into values`);return t}function ee(e,n,t){let i={};for(let r of e)i=an(i,tt(r));for(let r of n)try{tn(r,i,!1)}catch(o){throw new Error(`failed parsing --set data: ${o.message}`)}for(let r of t)try{tn(r,i,!0)}catch(o){throw new Error(`failed parsing --set-string data: ${o.message}`)}return i}function M(e,n){let t=structuredClone(n);for(let[i,r]of Object.entries(e))r===null?delete t[i]:y(r)&&y(t[i])?t[i]=M(r,t[i]):t[i]=structuredClone(r);return t}var ne={name:"output",short:"o",kind:"string"},we={name:"revision",kind:"int"};function te(e){let n=e??"table";if(n!=="table"&&n!=="json"&&n!=="yaml")throw new h(`invalid argument "${n}" for "-o, --output" flag: invalid format type`);return n}async function ke(e,n,t){let i=await new k(e.kube).history(n,e.namespace),r=t?i.find(o=>o.version===t):i[i.length-1];if(!r)throw new h("release: not found");return r}function ie(e,n,t){n==="json"?e.out(JSON.stringify(t)):e.io.stdout((0,Ie.stringify)(t))}async function pn(e,n){let{args:t,flags:i}=b(n,[ne,we,{name:"show-desc",kind:"bool"}]);if(t.length!==1)throw new h(`"helm status" requires 1 argument

Usage:  helm status RELEASE_NAME [flags]`);let r=te(i.output),o=await ke(e,t[0],i.revision);return r==="table"?(e.io.stdout(X(o)),i["show-desc"]&&e.out(`DESCRIPTION: ${o.info.description}`)):ie(e,r,o),0}async function cn(e,n){let[t,...i]=n;if(t==="values"){let{args:r,flags:o}=b(i,[ne,we,{name:"all",short:"a",kind:"bool"}]);if(r.length!==1)throw new h(`"helm get values" requires 1 argument

Usage:  helm get values RELEASE_NAME [flags]`);let s=te(o.output),a=await ke(e,r[0],o.revision),d=D[a.chart.metadata.name],p=!!o.all,c=p?M(a.config??{},d?d.defaults(a.chart.metadata.version):a.chart.values):a.config,l=c&&Object.keys(c).length?c:null;return s==="table"?(e.out(p?"COMPUTED VALUES:":"USER-SUPPLIED VALUES:"),e.io.stdout((0,Ie.stringify)(l))):ie(e,s,l),0}if(t==="manifest"){let{args:r,flags:o}=b(i,[we]);if(r.length!==1)throw new h('"helm get manifest" requires 1 argument');let s=await ke(e,r[0],o.revision);return e.io.stdout(s.manifest),0}throw new h(`unknown command "${t??""}" for "helm get"`)}async function dn(e,n){let{args:t,flags:i}=b(n,[ne,{name:"max",kind:"int"}]);if(t.length!==1)throw new h('"helm history" requires 1 argument');let r=te(i.output),o=await new k(e.kube).history(t[0],e.namespace);if(!o.length)throw new h("release: not found");let s=o.map(a=>({revision:a.version,updated:a.info.last_deployed,status:a.info.status,chart:`${a.chart.metadata.name}-${a.chart.metadata.version}`,app_version:a.chart.metadata.appVersion,description:a.info.description}));if(r!=="table")ie(e,r,s);else{e.out("REVISION	UPDATED	STATUS	CHART	APP VERSION	DESCRIPTION");for(let a of s)e.out(`${a.revision}	${a.updated}	${a.status}	${a.chart}	${a.app_version}	${a.description}`)}return 0}async function ln(e,n){let{flags:t}=b(n,[ne,{name:"all-namespaces",short:"A",kind:"bool"},{name:"all",short:"a",kind:"bool"},{name:"filter",short:"f",kind:"string"},{name:"short",short:"q",kind:"bool"},{name:"deployed",kind:"bool"},{name:"failed",kind:"bool"},{name:"pending",kind:"bool"},{name:"uninstalled",kind:"bool"},{name:"superseded",kind:"bool"}]),i=te(t.output),r=await new k(e.kube).all(t["all-namespaces"]?void 0:e.namespace),o=new Map;for(let c of r){let l=`${c.namespace}/${c.name}`,u=o.get(l);(!u||u.version<c.version)&&o.set(l,c)}let s=new Set;for(let c of["deployed","failed","uninstalled","superseded"])t[c]&&s.add(c);t.pending&&["pending-install","pending-upgrade","pending-rollback"].forEach(c=>s.add(c)),s.size===0&&["deployed","failed"].forEach(c=>s.add(c));let a=t.filter?new RegExp(t.filter):void 0,p=[...o.values()].filter(c=>t.all||s.has(c.info.status)).filter(c=>!a||a.test(c.name)).sort((c,l)=>c.name.localeCompare(l.name)).map(c=>({name:c.name,namespace:c.namespace,revision:String(c.version),updated:Qe(c.info.last_deployed),status:c.info.status,chart:`${c.chart.metadata.name}-${c.chart.metadata.version}`,app_version:c.chart.metadata.appVersion}));if(t.short){for(let c of p)e.out(c.name);return 0}if(i!=="table")ie(e,i,p);else{e.out("NAME	NAMESPACE	REVISION	UPDATED	STATUS	CHART	APP VERSION");for(let c of p)e.out([c.name,c.namespace,c.revision,c.updated,c.status,c.chart,c.app_version].join("	"))}return 0}var G=j(q(),1);var hn=j(q(),1);var it={"gpu-operator-v26.3.3.yaml":`# Source: github.com/NVIDIA/gpu-operator @ tag v26.3.3 (b0a49c0e7b2e061dcd83f2bb2fe4fe960c5d0338) : deployments/gpu-operator/crds/nvidia.com_clusterpolicies.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.20.1
  name: clusterpolicies.nvidia.com
spec:
  group: nvidia.com
  names:
    kind: ClusterPolicy
    listKind: ClusterPolicyList
    plural: clusterpolicies
    singular: clusterpolicy
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1
    schema:
      openAPIV3Schema:
        description: ClusterPolicy is the Schema for the clusterpolicies API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: ClusterPolicySpec defines the desired state of ClusterPolicy
            properties:
              ccManager:
                description: CCManager component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  defaultMode:
                    description: Default CC mode setting for compatible GPUs on the
                      node
                    enum:
                    - "on"
                    - "off"
                    - devtools
                    type: string
                  enabled:
                    description: Enabled indicates if deployment of CC Manager is
                      enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the CC Manager pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: CC Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: CC Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: CC Manager image tag
                    type: string
                type: object
              cdi:
                description: CDI configures how the Container Device Interface is
                  used in the cluster
                properties:
                  default:
                    default: false
                    description: 'Deprecated: This field is no longer used. Setting
                      cdi.enabled=true will configure CDI as the default mechanism
                      for making GPUs accessible to containers.'
                    type: boolean
                  enabled:
                    default: true
                    description: Enabled indicates whether the Container Device Interface
                      (CDI) should be used as the mechanism for making GPUs accessible
                      to containers.
                    type: boolean
                  nriPluginEnabled:
                    default: false
                    description: NRIPluginEnabled indicates whether an NRI Plugin
                      should be run as a means of injecting CDI devices to gpu management
                      containers.
                    type: boolean
                type: object
              daemonsets:
                description: Daemonset defines common configuration for all Daemonsets
                properties:
                  annotations:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Annotations is an unstructured key value map stored with a resource that may be
                      set by external tools to store and retrieve arbitrary metadata. They are not
                      queryable and should be preserved when modifying objects.
                    type: object
                  labels:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Map of string keys and values that can be used to organize and categorize
                      (scope and select) objects. May match selectors of replication controllers
                      and services.
                    type: object
                  podSecurityContext:
                    description: 'Optional: Set pod-level security context for all
                      DaemonSet pods (applies as defaults to all containers)'
                    properties:
                      appArmorProfile:
                        description: |-
                          appArmorProfile is the AppArmor options to use by the containers in this pod.
                          Note that this field cannot be set when spec.os.name is windows.
                        properties:
                          localhostProfile:
                            description: |-
                              localhostProfile indicates a profile loaded on the node that should be used.
                              The profile must be preconfigured on the node to work.
                              Must match the loaded name of the profile.
                              Must be set if and only if type is "Localhost".
                            type: string
                          type:
                            description: |-
                              type indicates which kind of AppArmor profile will be applied.
                              Valid options are:
                                Localhost - a profile pre-loaded on the node.
                                RuntimeDefault - the container runtime's default profile.
                                Unconfined - no AppArmor enforcement.
                            type: string
                        required:
                        - type
                        type: object
                      fsGroup:
                        description: |-
                          A special supplemental group that applies to all containers in a pod.
                          Some volume types allow the Kubelet to change the ownership of that volume
                          to be owned by the pod:

                          1. The owning GID will be the FSGroup
                          2. The setgid bit is set (new files created in the volume will be owned by FSGroup)
                          3. The permission bits are OR'd with rw-rw----

                          If unset, the Kubelet will not modify the ownership and permissions of any volume.
                          Note that this field cannot be set when spec.os.name is windows.
                        format: int64
                        type: integer
                      fsGroupChangePolicy:
                        description: |-
                          fsGroupChangePolicy defines behavior of changing ownership and permission of the volume
                          before being exposed inside Pod. This field will only apply to
                          volume types which support fsGroup based ownership(and permissions).
                          It will have no effect on ephemeral volume types such as: secret, configmaps
                          and emptydir.
                          Valid values are "OnRootMismatch" and "Always". If not specified, "Always" is used.
                          Note that this field cannot be set when spec.os.name is windows.
                        type: string
                      runAsGroup:
                        description: |-
                          The GID to run the entrypoint of the container process.
                          Uses runtime default if unset.
                          May also be set in SecurityContext.  If set in both SecurityContext and
                          PodSecurityContext, the value specified in SecurityContext takes precedence
                          for that container.
                          Note that this field cannot be set when spec.os.name is windows.
                        format: int64
                        type: integer
                      runAsNonRoot:
                        description: |-
                          Indicates that the container must run as a non-root user.
                          If true, the Kubelet will validate the image at runtime to ensure that it
                          does not run as UID 0 (root) and fail to start the container if it does.
                          If unset or false, no such validation will be performed.
                          May also be set in SecurityContext.  If set in both SecurityContext and
                          PodSecurityContext, the value specified in SecurityContext takes precedence.
                        type: boolean
                      runAsUser:
                        description: |-
                          The UID to run the entrypoint of the container process.
                          Defaults to user specified in image metadata if unspecified.
                          May also be set in SecurityContext.  If set in both SecurityContext and
                          PodSecurityContext, the value specified in SecurityContext takes precedence
                          for that container.
                          Note that this field cannot be set when spec.os.name is windows.
                        format: int64
                        type: integer
                      seLinuxChangePolicy:
                        description: |-
                          seLinuxChangePolicy defines how the container's SELinux label is applied to all volumes used by the Pod.
                          It has no effect on nodes that do not support SELinux or to volumes does not support SELinux.
                          Valid values are "MountOption" and "Recursive".

                          "Recursive" means relabeling of all files on all Pod volumes by the container runtime.
                          This may be slow for large volumes, but allows mixing privileged and unprivileged Pods sharing the same volume on the same node.

                          "MountOption" mounts all eligible Pod volumes with \`-o context\` mount option.
                          This requires all Pods that share the same volume to use the same SELinux label.
                          It is not possible to share the same volume among privileged and unprivileged Pods.
                          Eligible volumes are in-tree FibreChannel and iSCSI volumes, and all CSI volumes
                          whose CSI driver announces SELinux support by setting spec.seLinuxMount: true in their
                          CSIDriver instance. Other volumes are always re-labelled recursively.
                          "MountOption" value is allowed only when SELinuxMount feature gate is enabled.

                          If not specified and SELinuxMount feature gate is enabled, "MountOption" is used.
                          If not specified and SELinuxMount feature gate is disabled, "MountOption" is used for ReadWriteOncePod volumes
                          and "Recursive" for all other volumes.

                          This field affects only Pods that have SELinux label set, either in PodSecurityContext or in SecurityContext of all containers.

                          All Pods that use the same volume should use the same seLinuxChangePolicy, otherwise some pods can get stuck in ContainerCreating state.
                          Note that this field cannot be set when spec.os.name is windows.
                        type: string
                      seLinuxOptions:
                        description: |-
                          The SELinux context to be applied to all containers.
                          If unspecified, the container runtime will allocate a random SELinux context for each
                          container.  May also be set in SecurityContext.  If set in
                          both SecurityContext and PodSecurityContext, the value specified in SecurityContext
                          takes precedence for that container.
                          Note that this field cannot be set when spec.os.name is windows.
                        properties:
                          level:
                            description: Level is SELinux level label that applies
                              to the container.
                            type: string
                          role:
                            description: Role is a SELinux role label that applies
                              to the container.
                            type: string
                          type:
                            description: Type is a SELinux type label that applies
                              to the container.
                            type: string
                          user:
                            description: User is a SELinux user label that applies
                              to the container.
                            type: string
                        type: object
                      seccompProfile:
                        description: |-
                          The seccomp options to use by the containers in this pod.
                          Note that this field cannot be set when spec.os.name is windows.
                        properties:
                          localhostProfile:
                            description: |-
                              localhostProfile indicates a profile defined in a file on the node should be used.
                              The profile must be preconfigured on the node to work.
                              Must be a descending path, relative to the kubelet's configured seccomp profile location.
                              Must be set if type is "Localhost". Must NOT be set for any other type.
                            type: string
                          type:
                            description: |-
                              type indicates which kind of seccomp profile will be applied.
                              Valid options are:

                              Localhost - a profile defined in a file on the node should be used.
                              RuntimeDefault - the container runtime default profile should be used.
                              Unconfined - no profile should be applied.
                            type: string
                        required:
                        - type
                        type: object
                      supplementalGroups:
                        description: |-
                          A list of groups applied to the first process run in each container, in
                          addition to the container's primary GID and fsGroup (if specified).  If
                          the SupplementalGroupsPolicy feature is enabled, the
                          supplementalGroupsPolicy field determines whether these are in addition
                          to or instead of any group memberships defined in the container image.
                          If unspecified, no additional groups are added, though group memberships
                          defined in the container image may still be used, depending on the
                          supplementalGroupsPolicy field.
                          Note that this field cannot be set when spec.os.name is windows.
                        items:
                          format: int64
                          type: integer
                        type: array
                        x-kubernetes-list-type: atomic
                      supplementalGroupsPolicy:
                        description: |-
                          Defines how supplemental groups of the first container processes are calculated.
                          Valid values are "Merge" and "Strict". If not specified, "Merge" is used.
                          (Alpha) Using the field requires the SupplementalGroupsPolicy feature gate to be enabled
                          and the container runtime must implement support for this feature.
                          Note that this field cannot be set when spec.os.name is windows.
                        type: string
                      sysctls:
                        description: |-
                          Sysctls hold a list of namespaced sysctls used for the pod. Pods with unsupported
                          sysctls (by the container runtime) might fail to launch.
                          Note that this field cannot be set when spec.os.name is windows.
                        items:
                          description: Sysctl defines a kernel parameter to be set
                          properties:
                            name:
                              description: Name of a property to set
                              type: string
                            value:
                              description: Value of a property to set
                              type: string
                          required:
                          - name
                          - value
                          type: object
                        type: array
                        x-kubernetes-list-type: atomic
                      windowsOptions:
                        description: |-
                          The Windows specific settings applied to all containers.
                          If unspecified, the options within a container's SecurityContext will be used.
                          If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.
                          Note that this field cannot be set when spec.os.name is linux.
                        properties:
                          gmsaCredentialSpec:
                            description: |-
                              GMSACredentialSpec is where the GMSA admission webhook
                              (https://github.com/kubernetes-sigs/windows-gmsa) inlines the contents of the
                              GMSA credential spec named by the GMSACredentialSpecName field.
                            type: string
                          gmsaCredentialSpecName:
                            description: GMSACredentialSpecName is the name of the
                              GMSA credential spec to use.
                            type: string
                          hostProcess:
                            description: |-
                              HostProcess determines if a container should be run as a 'Host Process' container.
                              All of a Pod's containers must have the same effective HostProcess value
                              (it is not allowed to have a mix of HostProcess containers and non-HostProcess containers).
                              In addition, if HostProcess is true then HostNetwork must also be set to true.
                            type: boolean
                          runAsUserName:
                            description: |-
                              The UserName in Windows to run the entrypoint of the container process.
                              Defaults to the user specified in image metadata if unspecified.
                              May also be set in PodSecurityContext. If set in both SecurityContext and
                              PodSecurityContext, the value specified in SecurityContext takes precedence.
                            type: string
                        type: object
                    type: object
                  priorityClassName:
                    type: string
                  rollingUpdate:
                    description: 'Optional: Configuration for rolling update of all
                      DaemonSet pods'
                    properties:
                      maxUnavailable:
                        type: string
                    type: object
                  tolerations:
                    description: 'Optional: Set tolerations'
                    items:
                      description: |-
                        The pod this Toleration is attached to tolerates any taint that matches
                        the triple <key,value,effect> using the matching operator <operator>.
                      properties:
                        effect:
                          description: |-
                            Effect indicates the taint effect to match. Empty means match all taint effects.
                            When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.
                          type: string
                        key:
                          description: |-
                            Key is the taint key that the toleration applies to. Empty means match all taint keys.
                            If the key is empty, operator must be Exists; this combination means to match all values and all keys.
                          type: string
                        operator:
                          description: |-
                            Operator represents a key's relationship to the value.
                            Valid operators are Exists, Equal, Lt, and Gt. Defaults to Equal.
                            Exists is equivalent to wildcard for value, so that a pod can
                            tolerate all taints of a particular category.
                            Lt and Gt perform numeric comparisons (requires feature gate TaintTolerationComparisonOperators).
                          type: string
                        tolerationSeconds:
                          description: |-
                            TolerationSeconds represents the period of time the toleration (which must be
                            of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default,
                            it is not set, which means tolerate the taint forever (do not evict). Zero and
                            negative values will be treated as 0 (evict immediately) by the system.
                          format: int64
                          type: integer
                        value:
                          description: |-
                            Value is the taint value the toleration matches to.
                            If the operator is Exists, the value should be empty, otherwise just a regular string.
                          type: string
                      type: object
                    type: array
                  updateStrategy:
                    default: RollingUpdate
                    enum:
                    - RollingUpdate
                    - OnDelete
                    type: string
                type: object
              dcgm:
                description: DCGM component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA DCGM Hostengine
                      as a separate pod is enabled.
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the DCGM pod uses the
                      host's network namespace.
                    type: boolean
                  hostPort:
                    description: 'Deprecated: HostPort represents host port that needs
                      to be bound for DCGM engine (Default: 5555)'
                    format: int32
                    type: integer
                  image:
                    description: NVIDIA DCGM image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA DCGM image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA DCGM image tag
                    type: string
                type: object
              dcgmExporter:
                description: DCGMExporter spec
                properties:
                  annotations:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Annotations is an unstructured key value map stored with a resource that may be
                      set by external tools to store and retrieve arbitrary metadata. They are not
                      queryable and should be preserved when modifying objects.
                    type: object
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  config:
                    description: 'Optional: Custom metrics configuration for NVIDIA
                      DCGM Exporter'
                    properties:
                      name:
                        description: ConfigMap name with file dcgm-metrics.csv for
                          metrics to be collected by NVIDIA DCGM Exporter
                        type: string
                    type: object
                  enablePodLabels:
                    description: |-
                      Enable Kubernetes pod labels as Prometheus label dimensions in DCGM exporter metrics.
                      (Requires cluster-level read access to pods.)
                    type: boolean
                  enablePodUID:
                    description: |-
                      Enable Kubernetes pod UID as a Prometheus label dimension in DCGM exporter metrics.
                      (Requires cluster-level read access to pods.)
                    type: boolean
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA DCGM Exporter
                      through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork allows the DCGM-Exporter daemon set to
                      expose metrics port on the host's network namespace.
                    type: boolean
                  hostPID:
                    description: HostPID allows the DCGM-Exporter daemon set to access
                      the host's PID namespace
                    type: boolean
                  hpcJobMapping:
                    description: 'Optional: HPC job mapping configuration for NVIDIA
                      DCGM Exporter'
                    properties:
                      directory:
                        description: |-
                          Directory path where HPC job mapping files are created by the workload manager
                          Defaults to /var/lib/dcgm-exporter/job-mapping if not specified
                        type: string
                      enabled:
                        description: Enable HPC job mapping for DCGM Exporter
                        type: boolean
                    type: object
                  image:
                    description: NVIDIA DCGM Exporter image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  podLabelAllowlistRegex:
                    description: |-
                      Regex list for filtering which Kubernetes pod labels are included in DCGM exporter metrics.
                      Empty means all pod labels are included.
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA DCGM Exporter image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  service:
                    description: 'Optional: Service configuration for NVIDIA DCGM
                      Exporter'
                    properties:
                      internalTrafficPolicy:
                        description: InternalTrafficPolicy describes how nodes distribute
                          service traffic they receive on the ClusterIP.
                        type: string
                      type:
                        description: Type represents the ServiceType which describes
                          ingress methods for a service
                        type: string
                    type: object
                  serviceMonitor:
                    description: 'Optional: ServiceMonitor configuration for NVIDIA
                      DCGM Exporter'
                    properties:
                      additionalLabels:
                        additionalProperties:
                          type: string
                        description: AdditionalLabels to add to ServiceMonitor instance
                          for NVIDIA DCGM Exporter
                        type: object
                      enabled:
                        description: Enabled indicates if ServiceMonitor is deployed
                          for NVIDIA DCGM Exporter
                        type: boolean
                      honorLabels:
                        description: HonorLabels chooses the metric\u2019s labels on collisions
                          with target labels.
                        type: boolean
                      interval:
                        description: |-
                          Interval which metrics should be scraped from NVIDIA DCGM Exporter. If not specified Prometheus\u2019 global scrape interval is used.
                          Supported units: y, w, d, h, m, s, ms
                        pattern: ^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$
                        type: string
                      relabelings:
                        description: Relabelings allows to rewrite labels on metric
                          sets for NVIDIA DCGM Exporter
                        items:
                          description: |-
                            RelabelConfig allows dynamic rewriting of the label set for targets, alerts,
                            scraped samples and remote write samples.

                            More info: https://prometheus.io/docs/prometheus/latest/configuration/configuration/#relabel_config
                          properties:
                            action:
                              default: replace
                              description: |-
                                action to perform based on the regex matching.

                                \`Uppercase\` and \`Lowercase\` actions require Prometheus >= v2.36.0.
                                \`DropEqual\` and \`KeepEqual\` actions require Prometheus >= v2.41.0.

                                Default: "Replace"
                              enum:
                              - replace
                              - Replace
                              - keep
                              - Keep
                              - drop
                              - Drop
                              - hashmod
                              - HashMod
                              - labelmap
                              - LabelMap
                              - labeldrop
                              - LabelDrop
                              - labelkeep
                              - LabelKeep
                              - lowercase
                              - Lowercase
                              - uppercase
                              - Uppercase
                              - keepequal
                              - KeepEqual
                              - dropequal
                              - DropEqual
                              type: string
                            modulus:
                              description: |-
                                modulus to take of the hash of the source label values.

                                Only applicable when the action is \`HashMod\`.
                              format: int64
                              type: integer
                            regex:
                              description: regex defines the regular expression against
                                which the extracted value is matched.
                              type: string
                            replacement:
                              description: |-
                                replacement value against which a Replace action is performed if the
                                regular expression matches.

                                Regex capture groups are available.
                              type: string
                            separator:
                              description: separator defines the string between concatenated
                                SourceLabels.
                              type: string
                            sourceLabels:
                              description: |-
                                sourceLabels defines the source labels select values from existing labels. Their content is
                                concatenated using the configured Separator and matched against the
                                configured regular expression.
                              items:
                                description: |-
                                  LabelName is a valid Prometheus label name.
                                  For Prometheus 3.x, a label name is valid if it contains UTF-8 characters.
                                  For Prometheus 2.x, a label name is only valid if it contains ASCII characters, letters, numbers, as well as underscores.
                                type: string
                              type: array
                            targetLabel:
                              description: |-
                                targetLabel defines the label to which the resulting string is written in a replacement.

                                It is mandatory for \`Replace\`, \`HashMod\`, \`Lowercase\`, \`Uppercase\`,
                                \`KeepEqual\` and \`DropEqual\` actions.

                                Regex capture groups are available.
                              type: string
                          type: object
                        type: array
                    type: object
                  version:
                    description: NVIDIA DCGM Exporter image tag
                    type: string
                type: object
              devicePlugin:
                description: DevicePlugin component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  config:
                    description: 'Optional: Configuration for the NVIDIA Device Plugin
                      via the ConfigMap'
                    properties:
                      default:
                        description: Default config name within the ConfigMap for
                          the NVIDIA Device Plugin  config
                        type: string
                      name:
                        description: ConfigMap name for NVIDIA Device Plugin config
                          including shared config between plugin and GFD
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA Device
                      Plugin through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Device Plugin pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA Device Plugin image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  mps:
                    description: 'Optional: MPS related configuration for the NVIDIA
                      Device Plugin'
                    properties:
                      root:
                        default: /run/nvidia/mps
                        description: Root defines the MPS root path on the host
                        type: string
                    type: object
                  repository:
                    description: NVIDIA Device Plugin image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA Device Plugin image tag
                    type: string
                type: object
              driver:
                description: Driver component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  certConfig:
                    description: 'Optional: Custom certificates configuration for
                      NVIDIA Driver container'
                    properties:
                      name:
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA Driver
                      through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Driver pod uses
                      the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA Driver image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  kernelModuleConfig:
                    description: 'Optional: Kernel module configuration parameters
                      for the NVIDIA Driver'
                    properties:
                      name:
                        type: string
                    type: object
                  kernelModuleType:
                    default: auto
                    description: |-
                      KernelModuleType represents the type of driver kernel modules to be used when installing the GPU driver.
                      Accepted values are auto, proprietary and open. NOTE: If auto is chosen, it means that the recommended kernel module
                      type is chosen based on the GPU devices on the host and the driver branch used
                    enum:
                    - auto
                    - open
                    - proprietary
                    type: string
                  licensingConfig:
                    description: 'Optional: Licensing configuration for NVIDIA vGPU
                      licensing'
                    properties:
                      configMapName:
                        description: 'Deprecated: ConfigMapName has been deprecated
                          in favour of SecretName. Please use secrets to handle the
                          licensing server configuration more securely'
                        type: string
                      nlsEnabled:
                        description: NLSEnabled indicates if NVIDIA Licensing System
                          is used for licensing.
                        type: boolean
                      secretName:
                        description: SecretName indicates the name of the secret containing
                          the licensing token
                        type: string
                    type: object
                  livenessProbe:
                    description: NVIDIA Driver container liveness probe settings
                    properties:
                      failureThreshold:
                        description: |-
                          Minimum consecutive failures for the probe to be considered failed after having succeeded.
                          Defaults to 3. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      initialDelaySeconds:
                        description: |-
                          Number of seconds after the container has started before liveness probes are initiated.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        type: integer
                      periodSeconds:
                        description: |-
                          How often (in seconds) to perform the probe.
                          Default to 10 seconds. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      successThreshold:
                        description: |-
                          Minimum consecutive successes for the probe to be considered successful after having failed.
                          Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      timeoutSeconds:
                        description: |-
                          Number of seconds after which the probe times out.
                          Defaults to 1 second. Minimum value is 1.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        minimum: 1
                        type: integer
                    type: object
                  manager:
                    description: Manager represents configuration for NVIDIA Driver
                      Manager initContainer
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Image represents NVIDIA Driver Manager image
                          name
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullPolicy:
                        description: Image pull policy
                        type: string
                      imagePullSecrets:
                        description: Image pull secrets
                        items:
                          type: string
                        type: array
                      repository:
                        description: Repository represents Driver Managerrepository
                          path
                        type: string
                      version:
                        description: Version represents NVIDIA Driver Manager image
                          tag(version)
                        type: string
                    type: object
                  rdma:
                    description: GPUDirectRDMASpec defines the properties for nvidia-peermem
                      deployment
                    properties:
                      enabled:
                        description: Enabled indicates if GPUDirect RDMA is enabled
                          through GPU operator
                        type: boolean
                      useHostMofed:
                        description: UseHostMOFED indicates to use MOFED drivers directly
                          installed on the host to enable GPUDirect RDMA
                        type: boolean
                    type: object
                  readinessProbe:
                    description: NVIDIA Driver container readiness probe settings
                    properties:
                      failureThreshold:
                        description: |-
                          Minimum consecutive failures for the probe to be considered failed after having succeeded.
                          Defaults to 3. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      initialDelaySeconds:
                        description: |-
                          Number of seconds after the container has started before liveness probes are initiated.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        type: integer
                      periodSeconds:
                        description: |-
                          How often (in seconds) to perform the probe.
                          Default to 10 seconds. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      successThreshold:
                        description: |-
                          Minimum consecutive successes for the probe to be considered successful after having failed.
                          Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      timeoutSeconds:
                        description: |-
                          Number of seconds after which the probe times out.
                          Defaults to 1 second. Minimum value is 1.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        minimum: 1
                        type: integer
                    type: object
                  repoConfig:
                    description: 'Optional: Custom repo configuration for NVIDIA Driver
                      container'
                    properties:
                      configMapName:
                        type: string
                    type: object
                  repository:
                    description: NVIDIA Driver image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  secretEnv:
                    description: 'Optional: SecretEnv represents the name of the Kubernetes
                      Secret with secret environment variables for the NVIDIA Driver'
                    type: string
                  startupProbe:
                    description: NVIDIA Driver container startup probe settings
                    properties:
                      failureThreshold:
                        description: |-
                          Minimum consecutive failures for the probe to be considered failed after having succeeded.
                          Defaults to 3. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      initialDelaySeconds:
                        description: |-
                          Number of seconds after the container has started before liveness probes are initiated.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        type: integer
                      periodSeconds:
                        description: |-
                          How often (in seconds) to perform the probe.
                          Default to 10 seconds. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      successThreshold:
                        description: |-
                          Minimum consecutive successes for the probe to be considered successful after having failed.
                          Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      timeoutSeconds:
                        description: |-
                          Number of seconds after which the probe times out.
                          Defaults to 1 second. Minimum value is 1.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        minimum: 1
                        type: integer
                    type: object
                  upgradePolicy:
                    description: Driver auto-upgrade settings
                    properties:
                      autoUpgrade:
                        default: false
                        description: |-
                          AutoUpgrade is a global switch for automatic upgrade feature
                          if set to false all other options are ignored
                        type: boolean
                      drain:
                        description: DrainSpec describes configuration for node drain
                          during automatic upgrade
                        properties:
                          deleteEmptyDir:
                            default: false
                            description: |-
                              DeleteEmptyDir indicates if should continue even if there are pods using emptyDir
                              (local data that will be deleted when the node is drained)
                            type: boolean
                          enable:
                            default: false
                            description: Enable indicates if node draining is allowed
                              during upgrade
                            type: boolean
                          force:
                            default: false
                            description: Force indicates if force draining is allowed
                            type: boolean
                          podSelector:
                            description: |-
                              PodSelector specifies a label selector to filter pods on the node that need to be drained
                              For more details on label selectors, see:
                              https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                            type: string
                          timeoutSeconds:
                            default: 300
                            description: TimeoutSecond specifies the length of time
                              in seconds to wait before giving up drain, zero means
                              infinite
                            minimum: 0
                            type: integer
                        type: object
                      maxParallelUpgrades:
                        default: 1
                        description: |-
                          MaxParallelUpgrades indicates how many nodes can be upgraded in parallel
                          0 means no limit, all nodes will be upgraded in parallel
                        minimum: 0
                        type: integer
                      maxUnavailable:
                        anyOf:
                        - type: integer
                        - type: string
                        default: 25%
                        description: |-
                          MaxUnavailable is the maximum number of nodes with the driver installed, that can be unavailable during the upgrade.
                          Value can be an absolute number (ex: 5) or a percentage of total nodes at the start of upgrade (ex: 10%).
                          Absolute number is calculated from percentage by rounding up.
                          By default, a fixed value of 25% is used.
                        x-kubernetes-int-or-string: true
                      podDeletion:
                        description: PodDeletionSpec describes configuration for deletion
                          of pods using special resources during automatic upgrade
                        properties:
                          deleteEmptyDir:
                            default: false
                            description: |-
                              DeleteEmptyDir indicates if should continue even if there are pods using emptyDir
                              (local data that will be deleted when the pod is deleted)
                            type: boolean
                          force:
                            default: false
                            description: Force indicates if force deletion is allowed
                            type: boolean
                          timeoutSeconds:
                            default: 300
                            description: |-
                              TimeoutSecond specifies the length of time in seconds to wait before giving up on pod termination, zero means
                              infinite
                            minimum: 0
                            type: integer
                        type: object
                      waitForCompletion:
                        description: WaitForCompletionSpec describes the configuration
                          for waiting on job completions
                        properties:
                          podSelector:
                            description: |-
                              PodSelector specifies a label selector for the pods to wait for completion
                              For more details on label selectors, see:
                              https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                            type: string
                          timeoutSeconds:
                            default: 0
                            description: |-
                              TimeoutSecond specifies the length of time in seconds to wait before giving up on pod termination, zero means
                              infinite
                            minimum: 0
                            type: integer
                        type: object
                    type: object
                  useNvidiaDriverCRD:
                    description: UseNvidiaDriverCRD indicates if the deployment of
                      NVIDIA Driver is managed by the NVIDIADriver CRD type
                    type: boolean
                  useOpenKernelModules:
                    description: |-
                      Deprecated: This field is no longer honored by the gpu-operator. Please use KernelModuleType instead.
                      UseOpenKernelModules indicates if the open GPU kernel modules should be used
                    type: boolean
                  usePrecompiled:
                    description: UsePrecompiled indicates if deployment of NVIDIA
                      Driver using pre-compiled modules is enabled
                    type: boolean
                  version:
                    description: NVIDIA Driver image tag
                    type: string
                  virtualTopology:
                    description: 'Optional: Virtual Topology Daemon configuration
                      for NVIDIA vGPU drivers'
                    properties:
                      config:
                        description: 'Optional: Config name representing virtual topology
                          daemon configuration file nvidia-topologyd.conf'
                        type: string
                    type: object
                type: object
              gdrcopy:
                description: GDRCopy component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if GDRCopy is enabled through GPU
                      Operator
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: NVIDIA GDRCopy driver image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA GDRCopy driver image repository
                    type: string
                  version:
                    description: NVIDIA GDRCopy driver image tag
                    type: string
                type: object
              gds:
                description: GPUDirectStorage defines the spec for GDS components(Experimental)
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if GPUDirect Storage is enabled
                      through GPU operator
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: NVIDIA GPUDirect Storage Driver image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA GPUDirect Storage Driver image repository
                    type: string
                  version:
                    description: NVIDIA GPUDirect Storage Driver image tag
                    type: string
                type: object
              gfd:
                description: GPUFeatureDiscovery spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of GPU Feature Discovery
                      Plugin is enabled.
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the GPU Feature Discovery
                      pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: GFD image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: GFD image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: GFD image tag
                    type: string
                type: object
              hostPaths:
                description: HostPaths defines various paths on the host needed by
                  GPU Operator components
                properties:
                  driverInstallDir:
                    description: |-
                      DriverInstallDir represents the root at which driver files including libraries,
                      config files, and executables can be found.
                    type: string
                  rootFS:
                    description: |-
                      RootFS represents the path to the root filesystem of the host.
                      This is used by components that need to interact with the host filesystem
                      and as such this must be a chroot-able filesystem.
                      Examples include the MIG Manager and Toolkit Container which may need to
                      stop, start, or restart systemd services.
                    type: string
                type: object
              kataManager:
                description: KataManager component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  config:
                    description: Kata Manager config
                    properties:
                      artifactsDir:
                        default: /opt/nvidia-gpu-operator/artifacts/runtimeclasses
                        description: |-
                          ArtifactsDir is the directory where kata artifacts (e.g. kernel / guest images, configuration, etc.)
                          are placed on the local filesystem.
                        type: string
                      runtimeClasses:
                        description: RuntimeClasses is a list of kata runtime classes
                          to configure.
                        items:
                          description: RuntimeClass defines the configuration for
                            a kata RuntimeClass
                          properties:
                            artifacts:
                              description: Artifacts are the kata artifacts associated
                                with the runtime class.
                              properties:
                                pullSecret:
                                  description: PullSecret is the secret used to pull
                                    the OCI artifact.
                                  type: string
                                url:
                                  description: |-
                                    URL is the path to the OCI artifact (payload) containing all artifacts
                                    associated with a kata runtime class.
                                  type: string
                              required:
                              - url
                              type: object
                            name:
                              description: Name is the name of the kata runtime class.
                              type: string
                            nodeSelector:
                              additionalProperties:
                                type: string
                              description: |-
                                NodeSelector specifies the nodeSelector for the RuntimeClass object.
                                This ensures pods running with the RuntimeClass only get scheduled
                                onto nodes which support it.
                              type: object
                          required:
                          - artifacts
                          - name
                          type: object
                        type: array
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of Kata Manager is
                      enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Kata Manager pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: Kata Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: Kata Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: Kata Manager image tag
                    type: string
                type: object
              kataSandboxDevicePlugin:
                description: KataSandboxDevicePlugin component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA component
                      through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Kata Sandbox Device
                      Plugin pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA component image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA component image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA component image tag
                    type: string
                type: object
              mig:
                description: MIG spec
                properties:
                  strategy:
                    description: 'Optional: MIGStrategy to apply for GFD and NVIDIA
                      Device Plugin'
                    enum:
                    - none
                    - single
                    - mixed
                    type: string
                type: object
              migManager:
                description: MIGManager for configuration to deploy MIG Manager
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  config:
                    description: 'Optional: Custom mig-parted configuration for NVIDIA
                      MIG Manager container'
                    properties:
                      default:
                        default: all-disabled
                        description: Default MIG config to be applied on the node,
                          when there is no config specified with the node label nvidia.com/mig.config
                        enum:
                        - all-disabled
                        - ""
                        type: string
                      name:
                        description: ConfigMap name. If not specified, MIG configuration
                          will be dynamically generated from hardware.
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA MIG Manager
                      is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  gpuClientsConfig:
                    description: 'Optional: Custom gpu-clients configuration for NVIDIA
                      MIG Manager container'
                    properties:
                      name:
                        description: ConfigMap name
                        type: string
                    type: object
                  hostNetwork:
                    description: HostNetwork indicates whether the MIG Manager pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA MIG Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA MIG Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA MIG Manager image tag
                    type: string
                type: object
              nodeStatusExporter:
                description: NodeStatusExporter spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of Node Status Exporter
                      is enabled.
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Node Status Exporter
                      pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: Node Status Exporter image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: Node Status Exporterimage repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: Node Status Exporterimage tag
                    type: string
                type: object
              operator:
                description: Operator component spec
                properties:
                  annotations:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Annotations is an unstructured key value map stored with a resource that may be
                      set by external tools to store and retrieve arbitrary metadata. They are not
                      queryable and should be preserved when modifying objects.
                    type: object
                  defaultRuntime:
                    description: 'Deprecated: DefaultRuntime is no longer used by
                      the gpu-operator. This is instead, detected at runtime.'
                    type: string
                  initContainer:
                    description: 'Deprecated: InitContainerSpec describes configuration
                      for initContainer image used with all components'
                    properties:
                      image:
                        description: Image represents image name
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullPolicy:
                        description: Image pull policy
                        type: string
                      imagePullSecrets:
                        description: Image pull secrets
                        items:
                          type: string
                        type: array
                      repository:
                        description: Repository represents image repository path
                        type: string
                      version:
                        description: Version represents image tag(version)
                        type: string
                    type: object
                  labels:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Map of string keys and values that can be used to organize and categorize
                      (scope and select) objects. May match selectors of replication controllers
                      and services.
                    type: object
                  runtimeClass:
                    default: nvidia
                    type: string
                  use_ocp_driver_toolkit:
                    description: UseOpenShiftDriverToolkit indicates if DriverToolkit
                      image should be used on OpenShift to build and install driver
                      modules
                    type: boolean
                type: object
              psa:
                description: PSA defines spec for PodSecurityAdmission configuration
                properties:
                  enabled:
                    description: Enabled indicates if PodSecurityAdmission configuration
                      needs to be enabled for all Pods
                    type: boolean
                type: object
              psp:
                description: |-
                  Deprecated: Pod Security Policies are no longer supported. Please use PodSecurityAdmission instead
                  PSP defines spec for handling PodSecurityPolicies
                properties:
                  enabled:
                    description: Enabled indicates if PodSecurityPolicies needs to
                      be enabled for all Pods
                    type: boolean
                type: object
              sandboxDevicePlugin:
                description: SandboxDevicePlugin component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA Sandbox
                      Device Plugin through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Sandbox Device
                      Plugin pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA Sandbox Device Plugin image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA Sandbox Device Plugin image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA Sandbox Device Plugin image tag
                    type: string
                type: object
              sandboxWorkloads:
                description: SandboxWorkloads defines the spec for handling sandbox
                  workloads (i.e. Virtual Machines)
                properties:
                  defaultWorkload:
                    default: container
                    description: |-
                      DefaultWorkload indicates the default GPU workload type to configure
                      worker nodes in the cluster for
                    enum:
                    - container
                    - vm-passthrough
                    - vm-vgpu
                    type: string
                  enabled:
                    description: |-
                      Enabled indicates if the GPU Operator should manage additional operands required
                      for sandbox workloads (i.e. VFIO Manager, vGPU Manager, and additional device plugins)
                    type: boolean
                  mode:
                    default: kubevirt
                    description: |-
                      Mode indicates the sandbox mode. Accepted values are "kubevirt"
                      and "kata". The default value is "kubevirt".
                    enum:
                    - kubevirt
                    - kata
                    type: string
                type: object
              toolkit:
                description: Toolkit component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA Container
                      Toolkit through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Container Toolkit
                      pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA Container Toolkit image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  installDir:
                    default: /usr/local/nvidia
                    description: Toolkit install directory on the host
                    type: string
                  repository:
                    description: NVIDIA Container Toolkit image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA Container Toolkit image tag
                    type: string
                type: object
              validator:
                description: Validator defines the spec for operator-validator daemonset
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  cuda:
                    description: CUDA validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  driver:
                    description: Toolkit validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Validator pod uses
                      the host's network namespace.
                    type: boolean
                  image:
                    description: Validator image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  plugin:
                    description: Plugin validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  repository:
                    description: Validator image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  toolkit:
                    description: Toolkit validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  version:
                    description: Validator image tag
                    type: string
                  vfioPCI:
                    description: VfioPCI validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  vgpuDevices:
                    description: VGPUDevices validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  vgpuManager:
                    description: VGPUManager validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                type: object
              vfioManager:
                description: VFIOManager for configuration to deploy VFIO-PCI Manager
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  driverManager:
                    description: DriverManager represents configuration for NVIDIA
                      Driver Manager
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Image represents NVIDIA Driver Manager image
                          name
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullPolicy:
                        description: Image pull policy
                        type: string
                      imagePullSecrets:
                        description: Image pull secrets
                        items:
                          type: string
                        type: array
                      repository:
                        description: Repository represents Driver Managerrepository
                          path
                        type: string
                      version:
                        description: Version represents NVIDIA Driver Manager image
                          tag(version)
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of VFIO Manager is
                      enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the VFIO Manager pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: VFIO Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: VFIO Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: VFIO Manager image tag
                    type: string
                type: object
              vgpuDeviceManager:
                description: VGPUDeviceManager spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  config:
                    description: NVIDIA vGPU devices configuration for NVIDIA vGPU
                      Device Manager container
                    properties:
                      default:
                        default: default
                        description: Default config name within the ConfigMap
                        type: string
                      name:
                        description: ConfigMap name
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA vGPU Device
                      Manager is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the vGPU Device Manager
                      pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA vGPU Device Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA vGPU Device Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA vGPU Device Manager image tag
                    type: string
                type: object
              vgpuManager:
                description: VGPUManager component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  driverManager:
                    description: DriverManager represents configuration for NVIDIA
                      Driver Manager initContainer
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Image represents NVIDIA Driver Manager image
                          name
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullPolicy:
                        description: Image pull policy
                        type: string
                      imagePullSecrets:
                        description: Image pull secrets
                        items:
                          type: string
                        type: array
                      repository:
                        description: Repository represents Driver Managerrepository
                          path
                        type: string
                      version:
                        description: Version represents NVIDIA Driver Manager image
                          tag(version)
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA vGPU Manager
                      through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the vGPU Manager pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA vGPU Manager  image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  kernelModuleConfig:
                    description: 'Optional: Kernel module configuration parameters
                      for the vGPU manager'
                    properties:
                      name:
                        type: string
                    type: object
                  repository:
                    description: NVIDIA vGPU Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA vGPU Manager image tag
                    type: string
                type: object
            required:
            - daemonsets
            - dcgm
            - dcgmExporter
            - devicePlugin
            - driver
            - gfd
            - nodeStatusExporter
            - operator
            - toolkit
            type: object
          status:
            description: ClusterPolicyStatus defines the observed state of ClusterPolicy
            properties:
              conditions:
                description: Conditions is a list of conditions representing the ClusterPolicy's
                  current state.
                items:
                  description: Condition contains details for one aspect of the current
                    state of this API Resource.
                  properties:
                    lastTransitionTime:
                      description: |-
                        lastTransitionTime is the last time the condition transitioned from one status to another.
                        This should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable.
                      format: date-time
                      type: string
                    message:
                      description: |-
                        message is a human readable message indicating details about the transition.
                        This may be an empty string.
                      maxLength: 32768
                      type: string
                    observedGeneration:
                      description: |-
                        observedGeneration represents the .metadata.generation that the condition was set based upon.
                        For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date
                        with respect to the current state of the instance.
                      format: int64
                      minimum: 0
                      type: integer
                    reason:
                      description: |-
                        reason contains a programmatic identifier indicating the reason for the condition's last transition.
                        Producers of specific condition types may define expected values and meanings for this field,
                        and whether the values are considered a guaranteed API.
                        The value should be a CamelCase string.
                        This field may not be empty.
                      maxLength: 1024
                      minLength: 1
                      pattern: ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$
                      type: string
                    status:
                      description: status of the condition, one of True, False, Unknown.
                      enum:
                      - "True"
                      - "False"
                      - Unknown
                      type: string
                    type:
                      description: type of condition in CamelCase or in foo.example.com/CamelCase.
                      maxLength: 316
                      pattern: ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$
                      type: string
                  required:
                  - lastTransitionTime
                  - message
                  - reason
                  - status
                  - type
                  type: object
                type: array
              namespace:
                description: Namespace indicates a namespace in which the operator
                  is installed
                type: string
              state:
                description: State indicates status of ClusterPolicy
                enum:
                - ignored
                - ready
                - notReady
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
# Source: github.com/NVIDIA/gpu-operator @ tag v26.3.3 (b0a49c0e7b2e061dcd83f2bb2fe4fe960c5d0338) : deployments/gpu-operator/crds/nvidia.com_nvidiadrivers.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.20.1
  name: nvidiadrivers.nvidia.com
spec:
  group: nvidia.com
  names:
    kind: NVIDIADriver
    listKind: NVIDIADriverList
    plural: nvidiadrivers
    shortNames:
    - nvd
    - nvdriver
    - nvdrivers
    singular: nvidiadriver
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: NVIDIADriver is the Schema for the nvidiadrivers API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: NVIDIADriverSpec defines the desired state of NVIDIADriver
            properties:
              annotations:
                additionalProperties:
                  type: string
                description: |-
                  Optional: Annotations is an unstructured key value map stored with a resource that may be
                  set by external tools to store and retrieve arbitrary metadata. They are not
                  queryable and should be preserved when modifying objects.
                type: object
              args:
                description: 'Optional: List of arguments'
                items:
                  type: string
                type: array
              certConfig:
                description: 'Optional: Custom certificates configuration for NVIDIA
                  Driver container'
                properties:
                  name:
                    type: string
                type: object
              driverType:
                default: gpu
                description: DriverType defines NVIDIA driver type
                enum:
                - gpu
                - vgpu
                - vgpu-host-manager
                type: string
                x-kubernetes-validations:
                - message: driverType is an immutable field. Please create a new NvidiaDriver
                    resource instead when you want to change this setting.
                  rule: self == oldSelf
              env:
                description: 'Optional: List of environment variables'
                items:
                  description: EnvVar represents an environment variable present in
                    a Container.
                  properties:
                    name:
                      description: Name of the environment variable.
                      type: string
                    value:
                      description: Value of the environment variable.
                      type: string
                  required:
                  - name
                  type: object
                type: array
              gdrcopy:
                description: GDRCopy defines the spec for GDRCopy driver
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if GDRCopy is enabled through GPU
                      operator
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: GDRCopy driver image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: GDRCopy diver image repository
                    type: string
                  version:
                    description: GDRCopy driver image tag
                    type: string
                type: object
              gds:
                description: GPUDirectStorage defines the spec for GDS driver
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if GPUDirect Storage is enabled
                      through GPU operator
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: NVIDIA GPUDirect Storage Driver image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA GPUDirect Storage Driver image repository
                    type: string
                  version:
                    description: NVIDIA GPUDirect Storage Driver image tag
                    type: string
                type: object
              hostNetwork:
                description: HostNetwork indicates whether the Driver pod uses the
                  host's network namespace.
                type: boolean
              image:
                default: nvcr.io/nvidia/driver
                description: NVIDIA Driver container image name
                type: string
              imagePullPolicy:
                description: Image pull policy
                type: string
              imagePullSecrets:
                description: Image pull secrets
                items:
                  type: string
                type: array
              kernelModuleConfig:
                description: 'Optional: Kernel module configuration parameters for
                  the NVIDIA Driver'
                properties:
                  name:
                    type: string
                type: object
              kernelModuleType:
                default: auto
                description: |-
                  KernelModuleType represents the type of driver kernel modules to be used when installing the GPU driver.
                  Accepted values are auto, proprietary and open. NOTE: If auto is chosen, it means that the recommended kernel module
                  type is chosen based on the GPU devices on the host and the driver branch used
                enum:
                - auto
                - open
                - proprietary
                type: string
              labels:
                additionalProperties:
                  type: string
                description: |-
                  Optional: Map of string keys and values that can be used to organize and categorize
                  (scope and select) objects. May match selectors of replication controllers
                  and services.
                type: object
              licensingConfig:
                description: 'Optional: Licensing configuration for NVIDIA vGPU licensing'
                properties:
                  name:
                    description: 'Deprecated: ConfigMapName has been deprecated in
                      favour of SecretName. Please use secrets to handle the licensing
                      server configuration more securely'
                    type: string
                  nlsEnabled:
                    description: NLSEnabled indicates if NVIDIA Licensing System is
                      used for licensing.
                    type: boolean
                  secretName:
                    type: string
                type: object
              livenessProbe:
                description: NVIDIA Driver container liveness probe settings
                properties:
                  failureThreshold:
                    description: |-
                      Minimum consecutive failures for the probe to be considered failed after having succeeded.
                      Defaults to 3. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  initialDelaySeconds:
                    description: |-
                      Number of seconds after the container has started before liveness probes are initiated.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    type: integer
                  periodSeconds:
                    description: |-
                      How often (in seconds) to perform the probe.
                      Default to 10 seconds. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  successThreshold:
                    description: |-
                      Minimum consecutive successes for the probe to be considered successful after having failed.
                      Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  timeoutSeconds:
                    description: |-
                      Number of seconds after which the probe times out.
                      Defaults to 1 second. Minimum value is 1.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    minimum: 1
                    type: integer
                type: object
              manager:
                description: Manager represents configuration for NVIDIA Driver Manager
                  initContainer
                properties:
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Image represents NVIDIA Driver Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: Repository represents Driver Managerrepository path
                    type: string
                  version:
                    description: Version represents NVIDIA Driver Manager image tag(version)
                    type: string
                type: object
              nodeAffinity:
                description: Affinity specifies node affinity rules for driver pods
                properties:
                  preferredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      The scheduler will prefer to schedule pods to nodes that satisfy
                      the affinity expressions specified by this field, but it may choose
                      a node that violates one or more of the expressions. The node that is
                      most preferred is the one with the greatest sum of weights, i.e.
                      for each node that meets all of the scheduling requirements (resource
                      request, requiredDuringScheduling affinity expressions, etc.),
                      compute a sum by iterating through the elements of this field and adding
                      "weight" to the sum if the node matches the corresponding matchExpressions; the
                      node(s) with the highest sum are the most preferred.
                    items:
                      description: |-
                        An empty preferred scheduling term matches all objects with implicit weight 0
                        (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).
                      properties:
                        preference:
                          description: A node selector term, associated with the corresponding
                            weight.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        weight:
                          description: Weight associated with matching the corresponding
                            nodeSelectorTerm, in the range 1-100.
                          format: int32
                          type: integer
                      required:
                      - preference
                      - weight
                      type: object
                    type: array
                    x-kubernetes-list-type: atomic
                  requiredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      If the affinity requirements specified by this field are not met at
                      scheduling time, the pod will not be scheduled onto the node.
                      If the affinity requirements specified by this field cease to be met
                      at some point during pod execution (e.g. due to an update), the system
                      may or may not try to eventually evict the pod from its node.
                    properties:
                      nodeSelectorTerms:
                        description: Required. A list of node selector terms. The
                          terms are ORed.
                        items:
                          description: |-
                            A null or empty node selector term matches no objects. The requirements of
                            them are ANDed.
                            The TopologySelectorTerm type implements a subset of the NodeSelectorTerm.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        type: array
                        x-kubernetes-list-type: atomic
                    required:
                    - nodeSelectorTerms
                    type: object
                    x-kubernetes-map-type: atomic
                type: object
              nodeSelector:
                additionalProperties:
                  type: string
                description: NodeSelector specifies a selector for installation of
                  NVIDIA driver
                type: object
              podSecurityContext:
                description: 'Optional: Set pod-level security context for driver
                  pod'
                properties:
                  appArmorProfile:
                    description: |-
                      appArmorProfile is the AppArmor options to use by the containers in this pod.
                      Note that this field cannot be set when spec.os.name is windows.
                    properties:
                      localhostProfile:
                        description: |-
                          localhostProfile indicates a profile loaded on the node that should be used.
                          The profile must be preconfigured on the node to work.
                          Must match the loaded name of the profile.
                          Must be set if and only if type is "Localhost".
                        type: string
                      type:
                        description: |-
                          type indicates which kind of AppArmor profile will be applied.
                          Valid options are:
                            Localhost - a profile pre-loaded on the node.
                            RuntimeDefault - the container runtime's default profile.
                            Unconfined - no AppArmor enforcement.
                        type: string
                    required:
                    - type
                    type: object
                  fsGroup:
                    description: |-
                      A special supplemental group that applies to all containers in a pod.
                      Some volume types allow the Kubelet to change the ownership of that volume
                      to be owned by the pod:

                      1. The owning GID will be the FSGroup
                      2. The setgid bit is set (new files created in the volume will be owned by FSGroup)
                      3. The permission bits are OR'd with rw-rw----

                      If unset, the Kubelet will not modify the ownership and permissions of any volume.
                      Note that this field cannot be set when spec.os.name is windows.
                    format: int64
                    type: integer
                  fsGroupChangePolicy:
                    description: |-
                      fsGroupChangePolicy defines behavior of changing ownership and permission of the volume
                      before being exposed inside Pod. This field will only apply to
                      volume types which support fsGroup based ownership(and permissions).
                      It will have no effect on ephemeral volume types such as: secret, configmaps
                      and emptydir.
                      Valid values are "OnRootMismatch" and "Always". If not specified, "Always" is used.
                      Note that this field cannot be set when spec.os.name is windows.
                    type: string
                  runAsGroup:
                    description: |-
                      The GID to run the entrypoint of the container process.
                      Uses runtime default if unset.
                      May also be set in SecurityContext.  If set in both SecurityContext and
                      PodSecurityContext, the value specified in SecurityContext takes precedence
                      for that container.
                      Note that this field cannot be set when spec.os.name is windows.
                    format: int64
                    type: integer
                  runAsNonRoot:
                    description: |-
                      Indicates that the container must run as a non-root user.
                      If true, the Kubelet will validate the image at runtime to ensure that it
                      does not run as UID 0 (root) and fail to start the container if it does.
                      If unset or false, no such validation will be performed.
                      May also be set in SecurityContext.  If set in both SecurityContext and
                      PodSecurityContext, the value specified in SecurityContext takes precedence.
                    type: boolean
                  runAsUser:
                    description: |-
                      The UID to run the entrypoint of the container process.
                      Defaults to user specified in image metadata if unspecified.
                      May also be set in SecurityContext.  If set in both SecurityContext and
                      PodSecurityContext, the value specified in SecurityContext takes precedence
                      for that container.
                      Note that this field cannot be set when spec.os.name is windows.
                    format: int64
                    type: integer
                  seLinuxChangePolicy:
                    description: |-
                      seLinuxChangePolicy defines how the container's SELinux label is applied to all volumes used by the Pod.
                      It has no effect on nodes that do not support SELinux or to volumes does not support SELinux.
                      Valid values are "MountOption" and "Recursive".

                      "Recursive" means relabeling of all files on all Pod volumes by the container runtime.
                      This may be slow for large volumes, but allows mixing privileged and unprivileged Pods sharing the same volume on the same node.

                      "MountOption" mounts all eligible Pod volumes with \`-o context\` mount option.
                      This requires all Pods that share the same volume to use the same SELinux label.
                      It is not possible to share the same volume among privileged and unprivileged Pods.
                      Eligible volumes are in-tree FibreChannel and iSCSI volumes, and all CSI volumes
                      whose CSI driver announces SELinux support by setting spec.seLinuxMount: true in their
                      CSIDriver instance. Other volumes are always re-labelled recursively.
                      "MountOption" value is allowed only when SELinuxMount feature gate is enabled.

                      If not specified and SELinuxMount feature gate is enabled, "MountOption" is used.
                      If not specified and SELinuxMount feature gate is disabled, "MountOption" is used for ReadWriteOncePod volumes
                      and "Recursive" for all other volumes.

                      This field affects only Pods that have SELinux label set, either in PodSecurityContext or in SecurityContext of all containers.

                      All Pods that use the same volume should use the same seLinuxChangePolicy, otherwise some pods can get stuck in ContainerCreating state.
                      Note that this field cannot be set when spec.os.name is windows.
                    type: string
                  seLinuxOptions:
                    description: |-
                      The SELinux context to be applied to all containers.
                      If unspecified, the container runtime will allocate a random SELinux context for each
                      container.  May also be set in SecurityContext.  If set in
                      both SecurityContext and PodSecurityContext, the value specified in SecurityContext
                      takes precedence for that container.
                      Note that this field cannot be set when spec.os.name is windows.
                    properties:
                      level:
                        description: Level is SELinux level label that applies to
                          the container.
                        type: string
                      role:
                        description: Role is a SELinux role label that applies to
                          the container.
                        type: string
                      type:
                        description: Type is a SELinux type label that applies to
                          the container.
                        type: string
                      user:
                        description: User is a SELinux user label that applies to
                          the container.
                        type: string
                    type: object
                  seccompProfile:
                    description: |-
                      The seccomp options to use by the containers in this pod.
                      Note that this field cannot be set when spec.os.name is windows.
                    properties:
                      localhostProfile:
                        description: |-
                          localhostProfile indicates a profile defined in a file on the node should be used.
                          The profile must be preconfigured on the node to work.
                          Must be a descending path, relative to the kubelet's configured seccomp profile location.
                          Must be set if type is "Localhost". Must NOT be set for any other type.
                        type: string
                      type:
                        description: |-
                          type indicates which kind of seccomp profile will be applied.
                          Valid options are:

                          Localhost - a profile defined in a file on the node should be used.
                          RuntimeDefault - the container runtime default profile should be used.
                          Unconfined - no profile should be applied.
                        type: string
                    required:
                    - type
                    type: object
                  supplementalGroups:
                    description: |-
                      A list of groups applied to the first process run in each container, in
                      addition to the container's primary GID and fsGroup (if specified).  If
                      the SupplementalGroupsPolicy feature is enabled, the
                      supplementalGroupsPolicy field determines whether these are in addition
                      to or instead of any group memberships defined in the container image.
                      If unspecified, no additional groups are added, though group memberships
                      defined in the container image may still be used, depending on the
                      supplementalGroupsPolicy field.
                      Note that this field cannot be set when spec.os.name is windows.
                    items:
                      format: int64
                      type: integer
                    type: array
                    x-kubernetes-list-type: atomic
                  supplementalGroupsPolicy:
                    description: |-
                      Defines how supplemental groups of the first container processes are calculated.
                      Valid values are "Merge" and "Strict". If not specified, "Merge" is used.
                      (Alpha) Using the field requires the SupplementalGroupsPolicy feature gate to be enabled
                      and the container runtime must implement support for this feature.
                      Note that this field cannot be set when spec.os.name is windows.
                    type: string
                  sysctls:
                    description: |-
                      Sysctls hold a list of namespaced sysctls used for the pod. Pods with unsupported
                      sysctls (by the container runtime) might fail to launch.
                      Note that this field cannot be set when spec.os.name is windows.
                    items:
                      description: Sysctl defines a kernel parameter to be set
                      properties:
                        name:
                          description: Name of a property to set
                          type: string
                        value:
                          description: Value of a property to set
                          type: string
                      required:
                      - name
                      - value
                      type: object
                    type: array
                    x-kubernetes-list-type: atomic
                  windowsOptions:
                    description: |-
                      The Windows specific settings applied to all containers.
                      If unspecified, the options within a container's SecurityContext will be used.
                      If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.
                      Note that this field cannot be set when spec.os.name is linux.
                    properties:
                      gmsaCredentialSpec:
                        description: |-
                          GMSACredentialSpec is where the GMSA admission webhook
                          (https://github.com/kubernetes-sigs/windows-gmsa) inlines the contents of the
                          GMSA credential spec named by the GMSACredentialSpecName field.
                        type: string
                      gmsaCredentialSpecName:
                        description: GMSACredentialSpecName is the name of the GMSA
                          credential spec to use.
                        type: string
                      hostProcess:
                        description: |-
                          HostProcess determines if a container should be run as a 'Host Process' container.
                          All of a Pod's containers must have the same effective HostProcess value
                          (it is not allowed to have a mix of HostProcess containers and non-HostProcess containers).
                          In addition, if HostProcess is true then HostNetwork must also be set to true.
                        type: boolean
                      runAsUserName:
                        description: |-
                          The UserName in Windows to run the entrypoint of the container process.
                          Defaults to the user specified in image metadata if unspecified.
                          May also be set in PodSecurityContext. If set in both SecurityContext and
                          PodSecurityContext, the value specified in SecurityContext takes precedence.
                        type: string
                    type: object
                type: object
              priorityClassName:
                description: 'Optional: Set priorityClassName'
                type: string
              rdma:
                description: GPUDirectRDMA defines the spec for NVIDIA Peer Memory
                  driver
                properties:
                  enabled:
                    description: Enabled indicates if GPUDirect RDMA is enabled through
                      GPU operator
                    type: boolean
                  useHostMofed:
                    description: UseHostMOFED indicates to use MOFED drivers directly
                      installed on the host to enable GPUDirect RDMA
                    type: boolean
                type: object
              readinessProbe:
                description: NVIDIA Driver container readiness probe settings
                properties:
                  failureThreshold:
                    description: |-
                      Minimum consecutive failures for the probe to be considered failed after having succeeded.
                      Defaults to 3. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  initialDelaySeconds:
                    description: |-
                      Number of seconds after the container has started before liveness probes are initiated.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    type: integer
                  periodSeconds:
                    description: |-
                      How often (in seconds) to perform the probe.
                      Default to 10 seconds. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  successThreshold:
                    description: |-
                      Minimum consecutive successes for the probe to be considered successful after having failed.
                      Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  timeoutSeconds:
                    description: |-
                      Number of seconds after which the probe times out.
                      Defaults to 1 second. Minimum value is 1.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    minimum: 1
                    type: integer
                type: object
              repoConfig:
                description: 'Optional: Custom repo configuration for NVIDIA Driver
                  container'
                properties:
                  name:
                    type: string
                type: object
              repository:
                description: NVIDIA Driver repository
                type: string
              resources:
                description: 'Optional: Define resources requests and limits for each
                  pod'
                properties:
                  limits:
                    additionalProperties:
                      anyOf:
                      - type: integer
                      - type: string
                      pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                      x-kubernetes-int-or-string: true
                    description: |-
                      Limits describes the maximum amount of compute resources allowed.
                      More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                    type: object
                  requests:
                    additionalProperties:
                      anyOf:
                      - type: integer
                      - type: string
                      pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                      x-kubernetes-int-or-string: true
                    description: |-
                      Requests describes the minimum amount of compute resources required.
                      If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                      otherwise to an implementation-defined value. Requests cannot exceed Limits.
                      More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                    type: object
                type: object
              secretEnv:
                description: 'Optional: SecretEnv represents the name of the Kubernetes
                  Secret with secret environment variables for the NVIDIA Driver'
                type: string
              startupProbe:
                description: NVIDIA Driver container startup probe settings
                properties:
                  failureThreshold:
                    description: |-
                      Minimum consecutive failures for the probe to be considered failed after having succeeded.
                      Defaults to 3. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  initialDelaySeconds:
                    description: |-
                      Number of seconds after the container has started before liveness probes are initiated.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    type: integer
                  periodSeconds:
                    description: |-
                      How often (in seconds) to perform the probe.
                      Default to 10 seconds. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  successThreshold:
                    description: |-
                      Minimum consecutive successes for the probe to be considered successful after having failed.
                      Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  timeoutSeconds:
                    description: |-
                      Number of seconds after which the probe times out.
                      Defaults to 1 second. Minimum value is 1.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    minimum: 1
                    type: integer
                type: object
              tolerations:
                description: 'Optional: Set tolerations'
                items:
                  description: |-
                    The pod this Toleration is attached to tolerates any taint that matches
                    the triple <key,value,effect> using the matching operator <operator>.
                  properties:
                    effect:
                      description: |-
                        Effect indicates the taint effect to match. Empty means match all taint effects.
                        When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.
                      type: string
                    key:
                      description: |-
                        Key is the taint key that the toleration applies to. Empty means match all taint keys.
                        If the key is empty, operator must be Exists; this combination means to match all values and all keys.
                      type: string
                    operator:
                      description: |-
                        Operator represents a key's relationship to the value.
                        Valid operators are Exists, Equal, Lt, and Gt. Defaults to Equal.
                        Exists is equivalent to wildcard for value, so that a pod can
                        tolerate all taints of a particular category.
                        Lt and Gt perform numeric comparisons (requires feature gate TaintTolerationComparisonOperators).
                      type: string
                    tolerationSeconds:
                      description: |-
                        TolerationSeconds represents the period of time the toleration (which must be
                        of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default,
                        it is not set, which means tolerate the taint forever (do not evict). Zero and
                        negative values will be treated as 0 (evict immediately) by the system.
                      format: int64
                      type: integer
                    value:
                      description: |-
                        Value is the taint value the toleration matches to.
                        If the operator is Exists, the value should be empty, otherwise just a regular string.
                      type: string
                  type: object
                type: array
              useOpenKernelModules:
                description: |-
                  Deprecated: This field is no longer honored by the gpu-operator. Please use KernelModuleType instead.
                  UseOpenKernelModules indicates if the open GPU kernel modules should be used
                type: boolean
              usePrecompiled:
                description: UsePrecompiled indicates if deployment of NVIDIA Driver
                  using pre-compiled modules is enabled
                type: boolean
                x-kubernetes-validations:
                - message: usePrecompiled is an immutable field. Please create a new
                    NvidiaDriver resource instead when you want to change this setting.
                  rule: self == oldSelf
              version:
                description: NVIDIA Driver version (or just branch for precompiled
                  drivers)
                type: string
              virtualTopologyConfig:
                description: 'Optional: Virtual Topology Daemon configuration for
                  NVIDIA vGPU drivers'
                properties:
                  name:
                    description: 'Optional: Config name representing virtual topology
                      daemon configuration file nvidia-topologyd.conf'
                    type: string
                type: object
            required:
            - driverType
            - image
            type: object
          status:
            description: NVIDIADriverStatus defines the observed state of NVIDIADriver
            properties:
              conditions:
                description: Conditions is a list of conditions representing the NVIDIADriver's
                  current state.
                items:
                  description: Condition contains details for one aspect of the current
                    state of this API Resource.
                  properties:
                    lastTransitionTime:
                      description: |-
                        lastTransitionTime is the last time the condition transitioned from one status to another.
                        This should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable.
                      format: date-time
                      type: string
                    message:
                      description: |-
                        message is a human readable message indicating details about the transition.
                        This may be an empty string.
                      maxLength: 32768
                      type: string
                    observedGeneration:
                      description: |-
                        observedGeneration represents the .metadata.generation that the condition was set based upon.
                        For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date
                        with respect to the current state of the instance.
                      format: int64
                      minimum: 0
                      type: integer
                    reason:
                      description: |-
                        reason contains a programmatic identifier indicating the reason for the condition's last transition.
                        Producers of specific condition types may define expected values and meanings for this field,
                        and whether the values are considered a guaranteed API.
                        The value should be a CamelCase string.
                        This field may not be empty.
                      maxLength: 1024
                      minLength: 1
                      pattern: ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$
                      type: string
                    status:
                      description: status of the condition, one of True, False, Unknown.
                      enum:
                      - "True"
                      - "False"
                      - Unknown
                      type: string
                    type:
                      description: type of condition in CamelCase or in foo.example.com/CamelCase.
                      maxLength: 316
                      pattern: ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$
                      type: string
                  required:
                  - lastTransitionTime
                  - message
                  - reason
                  - status
                  - type
                  type: object
                type: array
              namespace:
                description: Namespace indicates a namespace in which the operator
                  and driver are installed
                type: string
              state:
                description: |-
                  INSERT ADDITIONAL STATUS FIELD - define observed state of cluster
                  Important: Run "make" to regenerate code after modifying this file
                  State indicates status of NVIDIADriver instance
                enum:
                - ignored
                - ready
                - notReady
                - disabled
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
`,"gpu-operator-v26.7.0-node-feature-discovery.yaml":`# Source: github.com/NVIDIA/gpu-operator @ tag v26.7.0 (10ee5b3638b89e11e949412aafa5ba99279c3721) : deployments/gpu-operator/charts/node-feature-discovery/crds/nfd-api-crds.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.3
  name: nodefeatures.nfd.k8s-sigs.io
spec:
  group: nfd.k8s-sigs.io
  names:
    kind: NodeFeature
    listKind: NodeFeatureList
    plural: nodefeatures
    singular: nodefeature
  scope: Namespaced
  versions:
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        description: |-
          NodeFeature resource holds the features discovered for one node in the
          cluster.
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Specification of the NodeFeature, containing features discovered
              for a node.
            properties:
              features:
                description: Features is the full "raw" features data that has been
                  discovered.
                properties:
                  attributes:
                    additionalProperties:
                      description: AttributeFeatureSet is a set of features having
                        string value.
                      properties:
                        elements:
                          additionalProperties:
                            type: string
                          description: Individual features of the feature set.
                          type: object
                      required:
                      - elements
                      type: object
                    description: Attributes contains all the attribute-type features
                      of the node.
                    type: object
                  flags:
                    additionalProperties:
                      description: FlagFeatureSet is a set of simple features only
                        containing names without values.
                      properties:
                        elements:
                          additionalProperties:
                            description: |-
                              Nil is a dummy empty struct for protobuf compatibility.
                              NOTE: protobuf definitions have been removed but this is kept for API compatibility.
                            type: object
                          description: Individual features of the feature set.
                          type: object
                      required:
                      - elements
                      type: object
                    description: Flags contains all the flag-type features of the
                      node.
                    type: object
                  instances:
                    additionalProperties:
                      description: InstanceFeatureSet is a set of features each of
                        which is an instance having multiple attributes.
                      properties:
                        elements:
                          description: Individual features of the feature set.
                          items:
                            description: InstanceFeature represents one instance of
                              a complex features, e.g. a device.
                            properties:
                              attributes:
                                additionalProperties:
                                  type: string
                                description: Attributes of the instance feature.
                                type: object
                            required:
                            - attributes
                            type: object
                          type: array
                      required:
                      - elements
                      type: object
                    description: Instances contains all the instance-type features
                      of the node.
                    type: object
                type: object
              labels:
                additionalProperties:
                  type: string
                description: Labels is the set of node labels that are requested to
                  be created.
                type: object
            type: object
        required:
        - spec
        type: object
    served: true
    storage: true
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.3
  name: nodefeaturegroups.nfd.k8s-sigs.io
spec:
  group: nfd.k8s-sigs.io
  names:
    kind: NodeFeatureGroup
    listKind: NodeFeatureGroupList
    plural: nodefeaturegroups
    shortNames:
    - nfg
    singular: nodefeaturegroup
  scope: Namespaced
  versions:
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        description: NodeFeatureGroup resource holds Node pools by featureGroup
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Spec defines the rules to be evaluated.
            properties:
              featureGroupRules:
                description: List of rules to evaluate to determine nodes that belong
                  in this group.
                items:
                  description: GroupRule defines a rule for nodegroup filtering.
                  properties:
                    matchAny:
                      description: MatchAny specifies a list of matchers one of which
                        must match.
                      items:
                        description: MatchAnyElem specifies one sub-matcher of MatchAny.
                        properties:
                          matchFeatures:
                            description: MatchFeatures specifies a set of matcher
                              terms all of which must match.
                            items:
                              description: |-
                                FeatureMatcherTerm defines requirements against one feature set. All
                                requirements (specified as MatchExpressions) are evaluated against each
                                element in the feature set.
                              properties:
                                feature:
                                  description: Feature is the name of the feature
                                    set to match against.
                                  type: string
                                matchExpressions:
                                  additionalProperties:
                                    description: |-
                                      MatchExpression specifies an expression to evaluate against a set of input
                                      values. It contains an operator that is applied when matching the input and
                                      an array of values that the operator evaluates the input against.
                                    properties:
                                      op:
                                        description: Op is the operator to be applied.
                                        enum:
                                        - In
                                        - NotIn
                                        - InRegexp
                                        - Exists
                                        - DoesNotExist
                                        - Gt
                                        - Ge
                                        - Lt
                                        - Le
                                        - GtLt
                                        - GeLe
                                        - IsTrue
                                        - IsFalse
                                        type: string
                                      type:
                                        description: |-
                                          Type defines the value type for specific operators.
                                          The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                        type: string
                                      value:
                                        description: |-
                                          Value is the list of values that the operand evaluates the input
                                          against. Value should be empty if the operator is Exists, DoesNotExist,
                                          IsTrue or IsFalse. Value should contain exactly one element if the
                                          operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                          In other cases Value should contain at least one element.
                                        items:
                                          type: string
                                        type: array
                                    required:
                                    - op
                                    type: object
                                  description: |-
                                    MatchExpressions is the set of per-element expressions evaluated. These
                                    match against the value of the specified elements.
                                  type: object
                                matchName:
                                  description: |-
                                    MatchName in an expression that is matched against the name of each
                                    element in the feature set.
                                  properties:
                                    op:
                                      description: Op is the operator to be applied.
                                      enum:
                                      - In
                                      - NotIn
                                      - InRegexp
                                      - Exists
                                      - DoesNotExist
                                      - Gt
                                      - Ge
                                      - Lt
                                      - Le
                                      - GtLt
                                      - GeLe
                                      - IsTrue
                                      - IsFalse
                                      type: string
                                    type:
                                      description: |-
                                        Type defines the value type for specific operators.
                                        The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                      type: string
                                    value:
                                      description: |-
                                        Value is the list of values that the operand evaluates the input
                                        against. Value should be empty if the operator is Exists, DoesNotExist,
                                        IsTrue or IsFalse. Value should contain exactly one element if the
                                        operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                        In other cases Value should contain at least one element.
                                      items:
                                        type: string
                                      type: array
                                  required:
                                  - op
                                  type: object
                              required:
                              - feature
                              type: object
                            type: array
                        required:
                        - matchFeatures
                        type: object
                      type: array
                    matchFeatures:
                      description: MatchFeatures specifies a set of matcher terms
                        all of which must match.
                      items:
                        description: |-
                          FeatureMatcherTerm defines requirements against one feature set. All
                          requirements (specified as MatchExpressions) are evaluated against each
                          element in the feature set.
                        properties:
                          feature:
                            description: Feature is the name of the feature set to
                              match against.
                            type: string
                          matchExpressions:
                            additionalProperties:
                              description: |-
                                MatchExpression specifies an expression to evaluate against a set of input
                                values. It contains an operator that is applied when matching the input and
                                an array of values that the operator evaluates the input against.
                              properties:
                                op:
                                  description: Op is the operator to be applied.
                                  enum:
                                  - In
                                  - NotIn
                                  - InRegexp
                                  - Exists
                                  - DoesNotExist
                                  - Gt
                                  - Ge
                                  - Lt
                                  - Le
                                  - GtLt
                                  - GeLe
                                  - IsTrue
                                  - IsFalse
                                  type: string
                                type:
                                  description: |-
                                    Type defines the value type for specific operators.
                                    The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                  type: string
                                value:
                                  description: |-
                                    Value is the list of values that the operand evaluates the input
                                    against. Value should be empty if the operator is Exists, DoesNotExist,
                                    IsTrue or IsFalse. Value should contain exactly one element if the
                                    operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                    In other cases Value should contain at least one element.
                                  items:
                                    type: string
                                  type: array
                              required:
                              - op
                              type: object
                            description: |-
                              MatchExpressions is the set of per-element expressions evaluated. These
                              match against the value of the specified elements.
                            type: object
                          matchName:
                            description: |-
                              MatchName in an expression that is matched against the name of each
                              element in the feature set.
                            properties:
                              op:
                                description: Op is the operator to be applied.
                                enum:
                                - In
                                - NotIn
                                - InRegexp
                                - Exists
                                - DoesNotExist
                                - Gt
                                - Ge
                                - Lt
                                - Le
                                - GtLt
                                - GeLe
                                - IsTrue
                                - IsFalse
                                type: string
                              type:
                                description: |-
                                  Type defines the value type for specific operators.
                                  The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                type: string
                              value:
                                description: |-
                                  Value is the list of values that the operand evaluates the input
                                  against. Value should be empty if the operator is Exists, DoesNotExist,
                                  IsTrue or IsFalse. Value should contain exactly one element if the
                                  operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                  In other cases Value should contain at least one element.
                                items:
                                  type: string
                                type: array
                            required:
                            - op
                            type: object
                        required:
                        - feature
                        type: object
                      type: array
                    name:
                      description: Name of the rule.
                      type: string
                    vars:
                      additionalProperties:
                        type: string
                      description: |-
                        Vars is the variables to store if the rule matches. Variables can be
                        referenced from other rules enabling more complex rule hierarchies.
                      type: object
                    varsTemplate:
                      description: |-
                        VarsTemplate specifies a template to expand for dynamically generating
                        multiple variables. Data (after template expansion) must be keys with an
                        optional value (<key>[=<value>]) separated by newlines.
                      type: string
                  required:
                  - name
                  type: object
                type: array
            required:
            - featureGroupRules
            type: object
          status:
            description: |-
              Status of the NodeFeatureGroup after the most recent evaluation of the
              specification.
            properties:
              nodes:
                description: Nodes is a list of FeatureGroupNode in the cluster that
                  match the featureGroupRules
                items:
                  properties:
                    name:
                      description: Name of the node.
                      type: string
                  required:
                  - name
                  type: object
                type: array
                x-kubernetes-list-map-keys:
                - name
                x-kubernetes-list-type: map
            type: object
        required:
        - spec
        type: object
    served: true
    storage: true
    subresources:
      status: {}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.3
  name: nodefeaturerules.nfd.k8s-sigs.io
spec:
  group: nfd.k8s-sigs.io
  names:
    kind: NodeFeatureRule
    listKind: NodeFeatureRuleList
    plural: nodefeaturerules
    shortNames:
    - nfr
    singular: nodefeaturerule
  scope: Cluster
  versions:
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        description: |-
          NodeFeatureRule resource specifies a configuration for feature-based
          customization of node objects, such as node labeling.
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Spec defines the rules to be evaluated.
            properties:
              rules:
                description: Rules is a list of node customization rules.
                items:
                  description: Rule defines a rule for node customization such as
                    labeling.
                  properties:
                    annotations:
                      additionalProperties:
                        type: string
                      description: Annotations to create if the rule matches.
                      type: object
                    extendedResources:
                      additionalProperties:
                        type: string
                      description: ExtendedResources to create if the rule matches.
                      type: object
                    labels:
                      additionalProperties:
                        type: string
                      description: Labels to create if the rule matches.
                      type: object
                    labelsTemplate:
                      description: |-
                        LabelsTemplate specifies a template to expand for dynamically generating
                        multiple labels. Data (after template expansion) must be keys with an
                        optional value (<key>[=<value>]) separated by newlines.
                      type: string
                    matchAny:
                      description: MatchAny specifies a list of matchers one of which
                        must match.
                      items:
                        description: MatchAnyElem specifies one sub-matcher of MatchAny.
                        properties:
                          matchFeatures:
                            description: MatchFeatures specifies a set of matcher
                              terms all of which must match.
                            items:
                              description: |-
                                FeatureMatcherTerm defines requirements against one feature set. All
                                requirements (specified as MatchExpressions) are evaluated against each
                                element in the feature set.
                              properties:
                                feature:
                                  description: Feature is the name of the feature
                                    set to match against.
                                  type: string
                                matchExpressions:
                                  additionalProperties:
                                    description: |-
                                      MatchExpression specifies an expression to evaluate against a set of input
                                      values. It contains an operator that is applied when matching the input and
                                      an array of values that the operator evaluates the input against.
                                    properties:
                                      op:
                                        description: Op is the operator to be applied.
                                        enum:
                                        - In
                                        - NotIn
                                        - InRegexp
                                        - Exists
                                        - DoesNotExist
                                        - Gt
                                        - Ge
                                        - Lt
                                        - Le
                                        - GtLt
                                        - GeLe
                                        - IsTrue
                                        - IsFalse
                                        type: string
                                      type:
                                        description: |-
                                          Type defines the value type for specific operators.
                                          The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                        type: string
                                      value:
                                        description: |-
                                          Value is the list of values that the operand evaluates the input
                                          against. Value should be empty if the operator is Exists, DoesNotExist,
                                          IsTrue or IsFalse. Value should contain exactly one element if the
                                          operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                          In other cases Value should contain at least one element.
                                        items:
                                          type: string
                                        type: array
                                    required:
                                    - op
                                    type: object
                                  description: |-
                                    MatchExpressions is the set of per-element expressions evaluated. These
                                    match against the value of the specified elements.
                                  type: object
                                matchName:
                                  description: |-
                                    MatchName in an expression that is matched against the name of each
                                    element in the feature set.
                                  properties:
                                    op:
                                      description: Op is the operator to be applied.
                                      enum:
                                      - In
                                      - NotIn
                                      - InRegexp
                                      - Exists
                                      - DoesNotExist
                                      - Gt
                                      - Ge
                                      - Lt
                                      - Le
                                      - GtLt
                                      - GeLe
                                      - IsTrue
                                      - IsFalse
                                      type: string
                                    type:
                                      description: |-
                                        Type defines the value type for specific operators.
                                        The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                      type: string
                                    value:
                                      description: |-
                                        Value is the list of values that the operand evaluates the input
                                        against. Value should be empty if the operator is Exists, DoesNotExist,
                                        IsTrue or IsFalse. Value should contain exactly one element if the
                                        operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                        In other cases Value should contain at least one element.
                                      items:
                                        type: string
                                      type: array
                                  required:
                                  - op
                                  type: object
                              required:
                              - feature
                              type: object
                            type: array
                        required:
                        - matchFeatures
                        type: object
                      type: array
                    matchFeatures:
                      description: MatchFeatures specifies a set of matcher terms
                        all of which must match.
                      items:
                        description: |-
                          FeatureMatcherTerm defines requirements against one feature set. All
                          requirements (specified as MatchExpressions) are evaluated against each
                          element in the feature set.
                        properties:
                          feature:
                            description: Feature is the name of the feature set to
                              match against.
                            type: string
                          matchExpressions:
                            additionalProperties:
                              description: |-
                                MatchExpression specifies an expression to evaluate against a set of input
                                values. It contains an operator that is applied when matching the input and
                                an array of values that the operator evaluates the input against.
                              properties:
                                op:
                                  description: Op is the operator to be applied.
                                  enum:
                                  - In
                                  - NotIn
                                  - InRegexp
                                  - Exists
                                  - DoesNotExist
                                  - Gt
                                  - Ge
                                  - Lt
                                  - Le
                                  - GtLt
                                  - GeLe
                                  - IsTrue
                                  - IsFalse
                                  type: string
                                type:
                                  description: |-
                                    Type defines the value type for specific operators.
                                    The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                  type: string
                                value:
                                  description: |-
                                    Value is the list of values that the operand evaluates the input
                                    against. Value should be empty if the operator is Exists, DoesNotExist,
                                    IsTrue or IsFalse. Value should contain exactly one element if the
                                    operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                    In other cases Value should contain at least one element.
                                  items:
                                    type: string
                                  type: array
                              required:
                              - op
                              type: object
                            description: |-
                              MatchExpressions is the set of per-element expressions evaluated. These
                              match against the value of the specified elements.
                            type: object
                          matchName:
                            description: |-
                              MatchName in an expression that is matched against the name of each
                              element in the feature set.
                            properties:
                              op:
                                description: Op is the operator to be applied.
                                enum:
                                - In
                                - NotIn
                                - InRegexp
                                - Exists
                                - DoesNotExist
                                - Gt
                                - Ge
                                - Lt
                                - Le
                                - GtLt
                                - GeLe
                                - IsTrue
                                - IsFalse
                                type: string
                              type:
                                description: |-
                                  Type defines the value type for specific operators.
                                  The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                type: string
                              value:
                                description: |-
                                  Value is the list of values that the operand evaluates the input
                                  against. Value should be empty if the operator is Exists, DoesNotExist,
                                  IsTrue or IsFalse. Value should contain exactly one element if the
                                  operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                  In other cases Value should contain at least one element.
                                items:
                                  type: string
                                type: array
                            required:
                            - op
                            type: object
                        required:
                        - feature
                        type: object
                      type: array
                    name:
                      description: Name of the rule.
                      type: string
                    taints:
                      description: Taints to create if the rule matches.
                      items:
                        description: |-
                          The node this Taint is attached to has the "effect" on
                          any pod that does not tolerate the Taint.
                        properties:
                          effect:
                            description: |-
                              Required. The effect of the taint on pods
                              that do not tolerate the taint.
                              Valid effects are NoSchedule, PreferNoSchedule and NoExecute.
                            type: string
                          key:
                            description: Required. The taint key to be applied to
                              a node.
                            type: string
                          timeAdded:
                            description: |-
                              TimeAdded represents the time at which the taint was added.
                              It is only written for NoExecute taints.
                            format: date-time
                            type: string
                          value:
                            description: The taint value corresponding to the taint
                              key.
                            type: string
                        required:
                        - effect
                        - key
                        type: object
                      type: array
                    vars:
                      additionalProperties:
                        type: string
                      description: |-
                        Vars is the variables to store if the rule matches. Variables do not
                        directly inflict any changes in the node object. However, they can be
                        referenced from other rules enabling more complex rule hierarchies,
                        without exposing intermediary output values as labels.
                      type: object
                    varsTemplate:
                      description: |-
                        VarsTemplate specifies a template to expand for dynamically generating
                        multiple variables. Data (after template expansion) must be keys with an
                        optional value (<key>[=<value>]) separated by newlines.
                      type: string
                  required:
                  - name
                  type: object
                type: array
            required:
            - rules
            type: object
        required:
        - spec
        type: object
    served: true
    storage: true
`,"gpu-operator-v26.7.0.yaml":`# Source: github.com/NVIDIA/gpu-operator @ tag v26.7.0 (10ee5b3638b89e11e949412aafa5ba99279c3721) : deployments/gpu-operator/crds/nvidia.com_clusterpolicies.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.21.0
  name: clusterpolicies.nvidia.com
spec:
  group: nvidia.com
  names:
    kind: ClusterPolicy
    listKind: ClusterPolicyList
    plural: clusterpolicies
    singular: clusterpolicy
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1
    schema:
      openAPIV3Schema:
        description: ClusterPolicy is the Schema for the clusterpolicies API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: ClusterPolicySpec defines the desired state of ClusterPolicy
            properties:
              ccManager:
                description: CCManager component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  defaultMode:
                    description: Default CC mode setting for compatible GPUs on the
                      node
                    enum:
                    - "on"
                    - "off"
                    - devtools
                    type: string
                  enabled:
                    description: Enabled indicates if deployment of CC Manager is
                      enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the CC Manager pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: CC Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: CC Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: CC Manager image tag
                    type: string
                type: object
              cdi:
                description: CDI configures how the Container Device Interface is
                  used in the cluster
                properties:
                  default:
                    default: false
                    description: 'Deprecated: This field is no longer used. Setting
                      cdi.enabled=true will configure CDI as the default mechanism
                      for making GPUs accessible to containers.'
                    type: boolean
                  enabled:
                    default: true
                    description: Enabled indicates whether the Container Device Interface
                      (CDI) should be used as the mechanism for making GPUs accessible
                      to containers.
                    type: boolean
                  nriPluginEnabled:
                    default: false
                    description: NRIPluginEnabled indicates whether an NRI Plugin
                      should be run as a means of injecting CDI devices to gpu management
                      containers.
                    type: boolean
                type: object
              daemonsets:
                description: Daemonset defines common configuration for all Daemonsets
                properties:
                  annotations:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Annotations is an unstructured key value map stored with a resource that may be
                      set by external tools to store and retrieve arbitrary metadata. They are not
                      queryable and should be preserved when modifying objects.
                    type: object
                  labels:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Map of string keys and values that can be used to organize and categorize
                      (scope and select) objects. May match selectors of replication controllers
                      and services.
                    type: object
                  podSecurityContext:
                    description: 'Optional: Set pod-level security context for all
                      DaemonSet pods (applies as defaults to all containers)'
                    properties:
                      appArmorProfile:
                        description: |-
                          appArmorProfile is the AppArmor options to use by the containers in this pod.
                          Note that this field cannot be set when spec.os.name is windows.
                        properties:
                          localhostProfile:
                            description: |-
                              localhostProfile indicates a profile loaded on the node that should be used.
                              The profile must be preconfigured on the node to work.
                              Must match the loaded name of the profile.
                              Must be set if and only if type is "Localhost".
                            type: string
                          type:
                            description: |-
                              type indicates which kind of AppArmor profile will be applied.
                              Valid options are:
                                Localhost - a profile pre-loaded on the node.
                                RuntimeDefault - the container runtime's default profile.
                                Unconfined - no AppArmor enforcement.
                            type: string
                        required:
                        - type
                        type: object
                      fsGroup:
                        description: |-
                          A special supplemental group that applies to all containers in a pod.
                          Some volume types allow the Kubelet to change the ownership of that volume
                          to be owned by the pod:

                          1. The owning GID will be the FSGroup
                          2. The setgid bit is set (new files created in the volume will be owned by FSGroup)
                          3. The permission bits are OR'd with rw-rw----

                          If unset, the Kubelet will not modify the ownership and permissions of any volume.
                          Note that this field cannot be set when spec.os.name is windows.
                        format: int64
                        type: integer
                      fsGroupChangePolicy:
                        description: |-
                          fsGroupChangePolicy defines behavior of changing ownership and permission of the volume
                          before being exposed inside Pod. This field will only apply to
                          volume types which support fsGroup based ownership(and permissions).
                          It will have no effect on ephemeral volume types such as: secret, configmaps
                          and emptydir.
                          Valid values are "OnRootMismatch" and "Always". If not specified, "Always" is used.
                          Note that this field cannot be set when spec.os.name is windows.
                        type: string
                      runAsGroup:
                        description: |-
                          The GID to run the entrypoint of the container process.
                          Uses runtime default if unset.
                          May also be set in SecurityContext.  If set in both SecurityContext and
                          PodSecurityContext, the value specified in SecurityContext takes precedence
                          for that container.
                          Note that this field cannot be set when spec.os.name is windows.
                        format: int64
                        type: integer
                      runAsNonRoot:
                        description: |-
                          Indicates that the container must run as a non-root user.
                          If true, the Kubelet will validate the image at runtime to ensure that it
                          does not run as UID 0 (root) and fail to start the container if it does.
                          If unset or false, no such validation will be performed.
                          May also be set in SecurityContext.  If set in both SecurityContext and
                          PodSecurityContext, the value specified in SecurityContext takes precedence.
                        type: boolean
                      runAsUser:
                        description: |-
                          The UID to run the entrypoint of the container process.
                          Defaults to user specified in image metadata if unspecified.
                          May also be set in SecurityContext.  If set in both SecurityContext and
                          PodSecurityContext, the value specified in SecurityContext takes precedence
                          for that container.
                          Note that this field cannot be set when spec.os.name is windows.
                        format: int64
                        type: integer
                      seLinuxChangePolicy:
                        description: |-
                          seLinuxChangePolicy defines how the container's SELinux label is applied to all volumes used by the Pod.
                          It has no effect on nodes that do not support SELinux or to volumes does not support SELinux.
                          Valid values are "MountOption" and "Recursive".

                          "Recursive" means relabeling of all files on all Pod volumes by the container runtime.
                          This may be slow for large volumes, but allows mixing privileged and unprivileged Pods sharing the same volume on the same node.

                          "MountOption" mounts all eligible Pod volumes with \`-o context\` mount option.
                          This requires all Pods that share the same volume to use the same SELinux label.
                          It is not possible to share the same volume among privileged and unprivileged Pods.
                          Eligible volumes are in-tree FibreChannel and iSCSI volumes, and all CSI volumes
                          whose CSI driver announces SELinux support by setting spec.seLinuxMount: true in their
                          CSIDriver instance. Other volumes are always re-labelled recursively.
                          "MountOption" value is allowed only when SELinuxMount feature gate is enabled.

                          If not specified and SELinuxMount feature gate is enabled, "MountOption" is used.
                          If not specified and SELinuxMount feature gate is disabled, "MountOption" is used for ReadWriteOncePod volumes
                          and "Recursive" for all other volumes.

                          This field affects only Pods that have SELinux label set, either in PodSecurityContext or in SecurityContext of all containers.

                          All Pods that use the same volume should use the same seLinuxChangePolicy, otherwise some pods can get stuck in ContainerCreating state.
                          Note that this field cannot be set when spec.os.name is windows.
                        type: string
                      seLinuxOptions:
                        description: |-
                          The SELinux context to be applied to all containers.
                          If unspecified, the container runtime will allocate a random SELinux context for each
                          container.  May also be set in SecurityContext.  If set in
                          both SecurityContext and PodSecurityContext, the value specified in SecurityContext
                          takes precedence for that container.
                          Note that this field cannot be set when spec.os.name is windows.
                        properties:
                          level:
                            description: Level is SELinux level label that applies
                              to the container.
                            type: string
                          role:
                            description: Role is a SELinux role label that applies
                              to the container.
                            type: string
                          type:
                            description: Type is a SELinux type label that applies
                              to the container.
                            type: string
                          user:
                            description: User is a SELinux user label that applies
                              to the container.
                            type: string
                        type: object
                      seccompProfile:
                        description: |-
                          The seccomp options to use by the containers in this pod.
                          Note that this field cannot be set when spec.os.name is windows.
                        properties:
                          localhostProfile:
                            description: |-
                              localhostProfile indicates a profile defined in a file on the node should be used.
                              The profile must be preconfigured on the node to work.
                              Must be a descending path, relative to the kubelet's configured seccomp profile location.
                              Must be set if type is "Localhost". Must NOT be set for any other type.
                            type: string
                          type:
                            description: |-
                              type indicates which kind of seccomp profile will be applied.
                              Valid options are:

                              Localhost - a profile defined in a file on the node should be used.
                              RuntimeDefault - the container runtime default profile should be used.
                              Unconfined - no profile should be applied.
                            type: string
                        required:
                        - type
                        type: object
                      supplementalGroups:
                        description: |-
                          A list of groups applied to the first process run in each container, in
                          addition to the container's primary GID and fsGroup (if specified).  If
                          the SupplementalGroupsPolicy feature is enabled, the
                          supplementalGroupsPolicy field determines whether these are in addition
                          to or instead of any group memberships defined in the container image.
                          If unspecified, no additional groups are added, though group memberships
                          defined in the container image may still be used, depending on the
                          supplementalGroupsPolicy field.
                          Note that this field cannot be set when spec.os.name is windows.
                        items:
                          format: int64
                          type: integer
                        type: array
                        x-kubernetes-list-type: atomic
                      supplementalGroupsPolicy:
                        description: |-
                          Defines how supplemental groups of the first container processes are calculated.
                          Valid values are "Merge" and "Strict". If not specified, "Merge" is used.
                          (Alpha) Using the field requires the SupplementalGroupsPolicy feature gate to be enabled
                          and the container runtime must implement support for this feature.
                          Note that this field cannot be set when spec.os.name is windows.
                        type: string
                      sysctls:
                        description: |-
                          Sysctls hold a list of namespaced sysctls used for the pod. Pods with unsupported
                          sysctls (by the container runtime) might fail to launch.
                          Note that this field cannot be set when spec.os.name is windows.
                        items:
                          description: Sysctl defines a kernel parameter to be set
                          properties:
                            name:
                              description: Name of a property to set
                              type: string
                            value:
                              description: Value of a property to set
                              type: string
                          required:
                          - name
                          - value
                          type: object
                        type: array
                        x-kubernetes-list-type: atomic
                      windowsOptions:
                        description: |-
                          The Windows specific settings applied to all containers.
                          If unspecified, the options within a container's SecurityContext will be used.
                          If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.
                          Note that this field cannot be set when spec.os.name is linux.
                        properties:
                          gmsaCredentialSpec:
                            description: |-
                              GMSACredentialSpec is where the GMSA admission webhook
                              (https://github.com/kubernetes-sigs/windows-gmsa) inlines the contents of the
                              GMSA credential spec named by the GMSACredentialSpecName field.
                            type: string
                          gmsaCredentialSpecName:
                            description: GMSACredentialSpecName is the name of the
                              GMSA credential spec to use.
                            type: string
                          hostProcess:
                            description: |-
                              HostProcess determines if a container should be run as a 'Host Process' container.
                              All of a Pod's containers must have the same effective HostProcess value
                              (it is not allowed to have a mix of HostProcess containers and non-HostProcess containers).
                              In addition, if HostProcess is true then HostNetwork must also be set to true.
                            type: boolean
                          runAsUserName:
                            description: |-
                              The UserName in Windows to run the entrypoint of the container process.
                              Defaults to the user specified in image metadata if unspecified.
                              May also be set in PodSecurityContext. If set in both SecurityContext and
                              PodSecurityContext, the value specified in SecurityContext takes precedence.
                            type: string
                        type: object
                    type: object
                  priorityClassName:
                    type: string
                  rollingUpdate:
                    description: 'Optional: Configuration for rolling update of all
                      DaemonSet pods'
                    properties:
                      maxUnavailable:
                        type: string
                    type: object
                  tolerations:
                    description: 'Optional: Set tolerations'
                    items:
                      description: |-
                        The pod this Toleration is attached to tolerates any taint that matches
                        the triple <key,value,effect> using the matching operator <operator>.
                      properties:
                        effect:
                          description: |-
                            Effect indicates the taint effect to match. Empty means match all taint effects.
                            When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.
                          type: string
                        key:
                          description: |-
                            Key is the taint key that the toleration applies to. Empty means match all taint keys.
                            If the key is empty, operator must be Exists; this combination means to match all values and all keys.
                          type: string
                        operator:
                          description: |-
                            Operator represents a key's relationship to the value.
                            Valid operators are Exists, Equal, Lt, and Gt. Defaults to Equal.
                            Exists is equivalent to wildcard for value, so that a pod can
                            tolerate all taints of a particular category.
                            Lt and Gt perform numeric comparisons (requires feature gate TaintTolerationComparisonOperators).
                          type: string
                        tolerationSeconds:
                          description: |-
                            TolerationSeconds represents the period of time the toleration (which must be
                            of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default,
                            it is not set, which means tolerate the taint forever (do not evict). Zero and
                            negative values will be treated as 0 (evict immediately) by the system.
                          format: int64
                          type: integer
                        value:
                          description: |-
                            Value is the taint value the toleration matches to.
                            If the operator is Exists, the value should be empty, otherwise just a regular string.
                          type: string
                      type: object
                    type: array
                  updateStrategy:
                    default: RollingUpdate
                    enum:
                    - RollingUpdate
                    - OnDelete
                    type: string
                type: object
              dcgm:
                description: DCGM component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA DCGM Hostengine
                      as a separate pod is enabled.
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the DCGM pod uses the
                      host's network namespace.
                    type: boolean
                  hostPort:
                    description: 'Deprecated: HostPort represents host port that needs
                      to be bound for DCGM engine (Default: 5555)'
                    format: int32
                    type: integer
                  image:
                    description: NVIDIA DCGM image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA DCGM image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA DCGM image tag
                    type: string
                type: object
              dcgmExporter:
                description: DCGMExporter spec
                properties:
                  annotations:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Annotations is an unstructured key value map stored with a resource that may be
                      set by external tools to store and retrieve arbitrary metadata. They are not
                      queryable and should be preserved when modifying objects.
                    type: object
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  config:
                    description: 'Optional: Custom metrics configuration for NVIDIA
                      DCGM Exporter'
                    properties:
                      name:
                        description: ConfigMap name with file dcgm-metrics.csv for
                          metrics to be collected by NVIDIA DCGM Exporter
                        type: string
                    type: object
                  enablePodLabels:
                    description: |-
                      Enable Kubernetes pod labels as Prometheus label dimensions in DCGM exporter metrics.
                      (Requires cluster-level read access to pods.)
                    type: boolean
                  enablePodUID:
                    description: |-
                      Enable Kubernetes pod UID as a Prometheus label dimension in DCGM exporter metrics.
                      (Requires cluster-level read access to pods.)
                    type: boolean
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA DCGM Exporter
                      through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork allows the DCGM-Exporter daemon set to
                      expose metrics port on the host's network namespace.
                    type: boolean
                  hostPID:
                    description: HostPID allows the DCGM-Exporter daemon set to access
                      the host's PID namespace
                    type: boolean
                  hpcJobMapping:
                    description: 'Optional: HPC job mapping configuration for NVIDIA
                      DCGM Exporter'
                    properties:
                      directory:
                        description: |-
                          Directory path where HPC job mapping files are created by the workload manager
                          Defaults to /var/lib/dcgm-exporter/job-mapping if not specified
                        type: string
                      enabled:
                        description: Enable HPC job mapping for DCGM Exporter
                        type: boolean
                    type: object
                  image:
                    description: NVIDIA DCGM Exporter image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  podLabelAllowlistRegex:
                    description: |-
                      Regex list for filtering which Kubernetes pod labels are included in DCGM exporter metrics.
                      Empty means all pod labels are included.
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA DCGM Exporter image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  service:
                    description: 'Optional: Service configuration for NVIDIA DCGM
                      Exporter'
                    properties:
                      internalTrafficPolicy:
                        description: InternalTrafficPolicy describes how nodes distribute
                          service traffic they receive on the ClusterIP.
                        type: string
                      type:
                        description: Type represents the ServiceType which describes
                          ingress methods for a service
                        type: string
                    type: object
                  serviceMonitor:
                    description: 'Optional: ServiceMonitor configuration for NVIDIA
                      DCGM Exporter'
                    properties:
                      additionalLabels:
                        additionalProperties:
                          type: string
                        description: AdditionalLabels to add to ServiceMonitor instance
                        type: object
                      enabled:
                        description: Enabled indicates if ServiceMonitor is deployed
                        type: boolean
                      honorLabels:
                        description: HonorLabels chooses the metric\u2019s labels on collisions
                          with target labels.
                        type: boolean
                      interval:
                        description: |-
                          Interval at which metrics should be scraped. If not specified, Prometheus\u2019 global scrape interval is used.
                          Supported units: y, w, d, h, m, s, ms
                        pattern: ^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$
                        type: string
                      relabelings:
                        description: Relabelings allows to rewrite labels on metric
                          sets
                        items:
                          description: |-
                            RelabelConfig allows dynamic rewriting of the label set for targets, alerts,
                            scraped samples and remote write samples.

                            More info: https://prometheus.io/docs/prometheus/latest/configuration/configuration/#relabel_config
                          properties:
                            action:
                              default: replace
                              description: |-
                                action to perform based on the regex matching.

                                \`Uppercase\` and \`Lowercase\` actions require Prometheus >= v2.36.0.
                                \`DropEqual\` and \`KeepEqual\` actions require Prometheus >= v2.41.0.

                                Default: "Replace"
                              enum:
                              - replace
                              - Replace
                              - keep
                              - Keep
                              - drop
                              - Drop
                              - hashmod
                              - HashMod
                              - labelmap
                              - LabelMap
                              - labeldrop
                              - LabelDrop
                              - labelkeep
                              - LabelKeep
                              - lowercase
                              - Lowercase
                              - uppercase
                              - Uppercase
                              - keepequal
                              - KeepEqual
                              - dropequal
                              - DropEqual
                              type: string
                            modulus:
                              description: |-
                                modulus to take of the hash of the source label values.

                                Only applicable when the action is \`HashMod\`.
                              format: int64
                              minimum: 0
                              type: integer
                            regex:
                              description: regex defines the regular expression against
                                which the extracted value is matched.
                              type: string
                            replacement:
                              description: |-
                                replacement value against which a Replace action is performed if the
                                regular expression matches.

                                Regex capture groups are available.
                              type: string
                            separator:
                              description: separator defines the string between concatenated
                                SourceLabels.
                              type: string
                            sourceLabels:
                              description: |-
                                sourceLabels defines the source labels select values from existing labels. Their content is
                                concatenated using the configured Separator and matched against the
                                configured regular expression.
                              items:
                                description: |-
                                  LabelName is a valid Prometheus label name.
                                  For Prometheus 3.x, a label name is valid if it contains UTF-8 characters.
                                  For Prometheus 2.x, a label name is only valid if it contains ASCII characters, letters, numbers, as well as underscores.
                                type: string
                              type: array
                            targetLabel:
                              description: |-
                                targetLabel defines the label to which the resulting string is written in a replacement.

                                It is mandatory for \`Replace\`, \`HashMod\`, \`Lowercase\`, \`Uppercase\`,
                                \`KeepEqual\` and \`DropEqual\` actions.

                                Regex capture groups are available.
                              type: string
                          type: object
                        type: array
                      scrapeTimeout:
                        description: |-
                          ScrapeTimeout to use when scraping metrics. Must not be greater than Interval.
                          If not specified, Prometheus' global scrape timeout is used.
                          Supported units: y, w, d, h, m, s, ms
                        pattern: ^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$
                        type: string
                    type: object
                  version:
                    description: NVIDIA DCGM Exporter image tag
                    type: string
                type: object
              devicePlugin:
                description: DevicePlugin component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  config:
                    description: 'Optional: Configuration for the NVIDIA Device Plugin
                      via the ConfigMap'
                    properties:
                      default:
                        description: Default config name within the ConfigMap for
                          the NVIDIA Device Plugin  config
                        type: string
                      name:
                        description: ConfigMap name for NVIDIA Device Plugin config
                          including shared config between plugin and GFD
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA Device
                      Plugin through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Device Plugin pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA Device Plugin image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  mps:
                    description: 'Optional: MPS related configuration for the NVIDIA
                      Device Plugin'
                    properties:
                      root:
                        default: /run/nvidia/mps
                        description: Root defines the MPS root path on the host
                        type: string
                    type: object
                  repository:
                    description: NVIDIA Device Plugin image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA Device Plugin image tag
                    type: string
                type: object
              driver:
                description: Driver component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  certConfig:
                    description: 'Optional: Custom certificates configuration for
                      NVIDIA Driver container'
                    properties:
                      name:
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA Driver
                      through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Driver pod uses
                      the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA Driver image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  kernelModuleConfig:
                    description: 'Optional: Kernel module configuration parameters
                      for the NVIDIA Driver'
                    properties:
                      name:
                        type: string
                    type: object
                  kernelModuleType:
                    default: auto
                    description: |-
                      KernelModuleType represents the type of driver kernel modules to be used when installing the GPU driver.
                      Accepted values are auto, proprietary and open. NOTE: If auto is chosen, it means that the recommended kernel module
                      type is chosen based on the GPU devices on the host and the driver branch used
                    enum:
                    - auto
                    - open
                    - proprietary
                    type: string
                  licensingConfig:
                    description: 'Optional: Licensing configuration for NVIDIA vGPU
                      licensing'
                    properties:
                      configMapName:
                        description: 'Deprecated: ConfigMapName has been deprecated
                          in favour of SecretName. Please use secrets to handle the
                          licensing server configuration more securely'
                        type: string
                      nlsEnabled:
                        description: NLSEnabled indicates if NVIDIA Licensing System
                          is used for licensing.
                        type: boolean
                      secretName:
                        description: SecretName indicates the name of the secret containing
                          the licensing token
                        type: string
                    type: object
                  livenessProbe:
                    description: NVIDIA Driver container liveness probe settings
                    properties:
                      failureThreshold:
                        description: |-
                          Minimum consecutive failures for the probe to be considered failed after having succeeded.
                          Defaults to 3. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      initialDelaySeconds:
                        description: |-
                          Number of seconds after the container has started before liveness probes are initiated.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        type: integer
                      periodSeconds:
                        description: |-
                          How often (in seconds) to perform the probe.
                          Default to 10 seconds. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      successThreshold:
                        description: |-
                          Minimum consecutive successes for the probe to be considered successful after having failed.
                          Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      timeoutSeconds:
                        description: |-
                          Number of seconds after which the probe times out.
                          Defaults to 1 second. Minimum value is 1.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        minimum: 1
                        type: integer
                    type: object
                  manager:
                    description: Manager represents configuration for NVIDIA Driver
                      Manager initContainer
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Image represents NVIDIA Driver Manager image
                          name
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullPolicy:
                        description: Image pull policy
                        type: string
                      imagePullSecrets:
                        description: Image pull secrets
                        items:
                          type: string
                        type: array
                      repository:
                        description: Repository represents Driver Managerrepository
                          path
                        type: string
                      version:
                        description: Version represents NVIDIA Driver Manager image
                          tag(version)
                        type: string
                    type: object
                  rdma:
                    description: GPUDirectRDMASpec defines the properties for nvidia-peermem
                      deployment
                    properties:
                      enabled:
                        description: Enabled indicates if GPUDirect RDMA is enabled
                          through GPU operator
                        type: boolean
                      useHostMofed:
                        description: UseHostMOFED indicates to use MOFED drivers directly
                          installed on the host to enable GPUDirect RDMA
                        type: boolean
                    type: object
                  readinessProbe:
                    description: NVIDIA Driver container readiness probe settings
                    properties:
                      failureThreshold:
                        description: |-
                          Minimum consecutive failures for the probe to be considered failed after having succeeded.
                          Defaults to 3. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      initialDelaySeconds:
                        description: |-
                          Number of seconds after the container has started before liveness probes are initiated.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        type: integer
                      periodSeconds:
                        description: |-
                          How often (in seconds) to perform the probe.
                          Default to 10 seconds. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      successThreshold:
                        description: |-
                          Minimum consecutive successes for the probe to be considered successful after having failed.
                          Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      timeoutSeconds:
                        description: |-
                          Number of seconds after which the probe times out.
                          Defaults to 1 second. Minimum value is 1.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        minimum: 1
                        type: integer
                    type: object
                  repoConfig:
                    description: 'Optional: Custom repo configuration for NVIDIA Driver
                      container'
                    properties:
                      configMapName:
                        type: string
                    type: object
                  repository:
                    description: NVIDIA Driver image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  secretEnv:
                    description: 'Optional: SecretEnv represents the name of the Kubernetes
                      Secret with secret environment variables for the NVIDIA Driver'
                    type: string
                  startupProbe:
                    description: NVIDIA Driver container startup probe settings
                    properties:
                      failureThreshold:
                        description: |-
                          Minimum consecutive failures for the probe to be considered failed after having succeeded.
                          Defaults to 3. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      initialDelaySeconds:
                        description: |-
                          Number of seconds after the container has started before liveness probes are initiated.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        type: integer
                      periodSeconds:
                        description: |-
                          How often (in seconds) to perform the probe.
                          Default to 10 seconds. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      successThreshold:
                        description: |-
                          Minimum consecutive successes for the probe to be considered successful after having failed.
                          Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                        format: int32
                        minimum: 1
                        type: integer
                      timeoutSeconds:
                        description: |-
                          Number of seconds after which the probe times out.
                          Defaults to 1 second. Minimum value is 1.
                          More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                        format: int32
                        minimum: 1
                        type: integer
                    type: object
                  upgradePolicy:
                    description: Driver auto-upgrade settings
                    properties:
                      autoUpgrade:
                        default: false
                        description: |-
                          AutoUpgrade is a global switch for automatic upgrade feature
                          if set to false all other options are ignored
                        type: boolean
                      drain:
                        description: DrainSpec describes configuration for node drain
                          during automatic upgrade
                        properties:
                          deleteEmptyDir:
                            default: false
                            description: |-
                              DeleteEmptyDir indicates if should continue even if there are pods using emptyDir
                              (local data that will be deleted when the node is drained)
                            type: boolean
                          enable:
                            default: false
                            description: Enable indicates if node draining is allowed
                              during upgrade
                            type: boolean
                          force:
                            default: false
                            description: Force indicates if force draining is allowed
                            type: boolean
                          podSelector:
                            description: |-
                              PodSelector specifies a label selector to filter pods on the node that need to be drained
                              For more details on label selectors, see:
                              https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                            type: string
                          timeoutSeconds:
                            default: 300
                            description: TimeoutSecond specifies the length of time
                              in seconds to wait before giving up drain, zero means
                              infinite
                            minimum: 0
                            type: integer
                        type: object
                      maxParallelUpgrades:
                        default: 1
                        description: |-
                          MaxParallelUpgrades indicates how many nodes can be upgraded in parallel
                          0 means no limit, all nodes will be upgraded in parallel
                        minimum: 0
                        type: integer
                      maxUnavailable:
                        anyOf:
                        - type: integer
                        - type: string
                        default: 25%
                        description: |-
                          MaxUnavailable is the maximum number of nodes with the driver installed, that can be unavailable during the upgrade.
                          Value can be an absolute number (ex: 5) or a percentage of total nodes at the start of upgrade (ex: 10%).
                          Absolute number is calculated from percentage by rounding up.
                          By default, a fixed value of 25% is used.
                        x-kubernetes-int-or-string: true
                      podDeletion:
                        description: PodDeletionSpec describes configuration for deletion
                          of pods using special resources during automatic upgrade
                        properties:
                          deleteEmptyDir:
                            default: false
                            description: |-
                              DeleteEmptyDir indicates if should continue even if there are pods using emptyDir
                              (local data that will be deleted when the pod is deleted)
                            type: boolean
                          force:
                            default: false
                            description: Force indicates if force deletion is allowed
                            type: boolean
                          timeoutSeconds:
                            default: 300
                            description: |-
                              TimeoutSecond specifies the length of time in seconds to wait before giving up on pod termination, zero means
                              infinite
                            minimum: 0
                            type: integer
                        type: object
                      waitForCompletion:
                        description: WaitForCompletionSpec describes the configuration
                          for waiting on job completions
                        properties:
                          podSelector:
                            description: |-
                              PodSelector specifies a label selector for the pods to wait for completion
                              For more details on label selectors, see:
                              https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                            type: string
                          timeoutSeconds:
                            default: 0
                            description: |-
                              TimeoutSecond specifies the length of time in seconds to wait before giving up on pod termination, zero means
                              infinite
                            minimum: 0
                            type: integer
                        type: object
                    type: object
                  useNvidiaDriverCRD:
                    description: UseNvidiaDriverCRD indicates if the deployment of
                      NVIDIA Driver is managed by the NVIDIADriver CRD type
                    type: boolean
                  useOpenKernelModules:
                    description: |-
                      Deprecated: This field is no longer honored by the gpu-operator. Please use KernelModuleType instead.
                      UseOpenKernelModules indicates if the open GPU kernel modules should be used
                    type: boolean
                  usePrecompiled:
                    description: UsePrecompiled indicates if deployment of NVIDIA
                      Driver using pre-compiled modules is enabled
                    type: boolean
                  version:
                    description: NVIDIA Driver image tag
                    type: string
                  virtualTopology:
                    description: 'Optional: Virtual Topology Daemon configuration
                      for NVIDIA vGPU drivers'
                    properties:
                      config:
                        description: 'Optional: Config name representing virtual topology
                          daemon configuration file nvidia-topologyd.conf'
                        type: string
                    type: object
                type: object
              gdrcopy:
                description: GDRCopy component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if GDRCopy is enabled through GPU
                      Operator
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: NVIDIA GDRCopy driver image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA GDRCopy driver image repository
                    type: string
                  version:
                    description: NVIDIA GDRCopy driver image tag
                    type: string
                type: object
              gds:
                description: GPUDirectStorage defines the spec for GDS components(Experimental)
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if GPUDirect Storage is enabled
                      through GPU operator
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: NVIDIA GPUDirect Storage Driver image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA GPUDirect Storage Driver image repository
                    type: string
                  version:
                    description: NVIDIA GPUDirect Storage Driver image tag
                    type: string
                type: object
              gfd:
                description: GPUFeatureDiscovery spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of GPU Feature Discovery
                      Plugin is enabled.
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the GPU Feature Discovery
                      pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: GFD image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: GFD image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: GFD image tag
                    type: string
                type: object
              hostPaths:
                description: HostPaths defines various paths on the host needed by
                  GPU Operator components
                properties:
                  driverInstallDir:
                    description: |-
                      DriverInstallDir represents the root at which driver files including libraries,
                      config files, and executables can be found.
                    type: string
                  kubeletRootDir:
                    default: /var/lib/kubelet
                    description: |-
                      KubeletRootDir represents the location of the kubelet root directory.
                      If empty, it will default to "/var/lib/kubelet".
                    type: string
                  rootFS:
                    description: |-
                      RootFS represents the path to the root filesystem of the host.
                      This is used by components that need to interact with the host filesystem
                      and as such this must be a chroot-able filesystem.
                      Examples include the MIG Manager and Toolkit Container which may need to
                      stop, start, or restart systemd services.
                    type: string
                type: object
              kataManager:
                description: |-
                  Deprecated: This field is no longer honored by the GPU Operator. All values under this field are ignored.
                  KataManager component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  config:
                    description: Kata Manager config
                    properties:
                      artifactsDir:
                        default: /opt/nvidia-gpu-operator/artifacts/runtimeclasses
                        description: |-
                          ArtifactsDir is the directory where kata artifacts (e.g. kernel / guest images, configuration, etc.)
                          are placed on the local filesystem.
                        type: string
                      runtimeClasses:
                        description: RuntimeClasses is a list of kata runtime classes
                          to configure.
                        items:
                          description: RuntimeClass defines the configuration for
                            a kata RuntimeClass
                          properties:
                            artifacts:
                              description: Artifacts are the kata artifacts associated
                                with the runtime class.
                              properties:
                                pullSecret:
                                  description: PullSecret is the secret used to pull
                                    the OCI artifact.
                                  type: string
                                url:
                                  description: |-
                                    URL is the path to the OCI artifact (payload) containing all artifacts
                                    associated with a kata runtime class.
                                  type: string
                              required:
                              - url
                              type: object
                            name:
                              description: Name is the name of the kata runtime class.
                              type: string
                            nodeSelector:
                              additionalProperties:
                                type: string
                              description: |-
                                NodeSelector specifies the nodeSelector for the RuntimeClass object.
                                This ensures pods running with the RuntimeClass only get scheduled
                                onto nodes which support it.
                              type: object
                          required:
                          - artifacts
                          - name
                          type: object
                        type: array
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of Kata Manager is
                      enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Kata Manager pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: Kata Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: Kata Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: Kata Manager image tag
                    type: string
                type: object
              kataSandboxDevicePlugin:
                description: KataSandboxDevicePlugin component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA component
                      through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Kata Sandbox Device
                      Plugin pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA component image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA component image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA component image tag
                    type: string
                type: object
              mig:
                description: MIG spec
                properties:
                  strategy:
                    description: 'Optional: MIGStrategy to apply for GFD and NVIDIA
                      Device Plugin'
                    enum:
                    - none
                    - single
                    - mixed
                    type: string
                type: object
              migManager:
                description: MIGManager for configuration to deploy MIG Manager
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  config:
                    description: 'Optional: Custom mig-parted configuration for NVIDIA
                      MIG Manager container'
                    properties:
                      default:
                        default: all-disabled
                        description: Default MIG config to be applied on the node,
                          when there is no config specified with the node label nvidia.com/mig.config
                        enum:
                        - all-disabled
                        - ""
                        type: string
                      name:
                        description: ConfigMap name. If not specified, MIG configuration
                          will be dynamically generated from hardware.
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA MIG Manager
                      is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  gpuClientsConfig:
                    description: 'Optional: Custom gpu-clients configuration for NVIDIA
                      MIG Manager container'
                    properties:
                      name:
                        description: ConfigMap name
                        type: string
                    type: object
                  hostNetwork:
                    description: HostNetwork indicates whether the MIG Manager pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA MIG Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA MIG Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA MIG Manager image tag
                    type: string
                type: object
              nodeStatusExporter:
                description: NodeStatusExporter spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of Node Status Exporter
                      is enabled.
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Node Status Exporter
                      pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: Node Status Exporter image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: Node Status Exporterimage repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: Node Status Exporterimage tag
                    type: string
                type: object
              operator:
                description: Operator component spec
                properties:
                  annotations:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Annotations is an unstructured key value map stored with a resource that may be
                      set by external tools to store and retrieve arbitrary metadata. They are not
                      queryable and should be preserved when modifying objects.
                    type: object
                  defaultRuntime:
                    description: 'Deprecated: DefaultRuntime is no longer used by
                      the gpu-operator. This is instead, detected at runtime.'
                    type: string
                  initContainer:
                    description: 'Deprecated: InitContainerSpec describes configuration
                      for initContainer image used with all components'
                    properties:
                      image:
                        description: Image represents image name
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullPolicy:
                        description: Image pull policy
                        type: string
                      imagePullSecrets:
                        description: Image pull secrets
                        items:
                          type: string
                        type: array
                      repository:
                        description: Repository represents image repository path
                        type: string
                      version:
                        description: Version represents image tag(version)
                        type: string
                    type: object
                  labels:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Map of string keys and values that can be used to organize and categorize
                      (scope and select) objects. May match selectors of replication controllers
                      and services.
                    type: object
                  metrics:
                    description: Metrics configuration for NVIDIA GPU Operator
                    properties:
                      serviceMonitor:
                        description: 'Optional: ServiceMonitor configuration for NVIDIA
                          GPU Operator'
                        properties:
                          additionalLabels:
                            additionalProperties:
                              type: string
                            description: AdditionalLabels to add to ServiceMonitor
                              instance
                            type: object
                          enabled:
                            description: Enabled indicates if ServiceMonitor is deployed
                            type: boolean
                          honorLabels:
                            description: HonorLabels chooses the metric\u2019s labels on
                              collisions with target labels.
                            type: boolean
                          interval:
                            description: |-
                              Interval at which metrics should be scraped. If not specified, Prometheus\u2019 global scrape interval is used.
                              Supported units: y, w, d, h, m, s, ms
                            pattern: ^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$
                            type: string
                          relabelings:
                            description: Relabelings allows to rewrite labels on metric
                              sets
                            items:
                              description: |-
                                RelabelConfig allows dynamic rewriting of the label set for targets, alerts,
                                scraped samples and remote write samples.

                                More info: https://prometheus.io/docs/prometheus/latest/configuration/configuration/#relabel_config
                              properties:
                                action:
                                  default: replace
                                  description: |-
                                    action to perform based on the regex matching.

                                    \`Uppercase\` and \`Lowercase\` actions require Prometheus >= v2.36.0.
                                    \`DropEqual\` and \`KeepEqual\` actions require Prometheus >= v2.41.0.

                                    Default: "Replace"
                                  enum:
                                  - replace
                                  - Replace
                                  - keep
                                  - Keep
                                  - drop
                                  - Drop
                                  - hashmod
                                  - HashMod
                                  - labelmap
                                  - LabelMap
                                  - labeldrop
                                  - LabelDrop
                                  - labelkeep
                                  - LabelKeep
                                  - lowercase
                                  - Lowercase
                                  - uppercase
                                  - Uppercase
                                  - keepequal
                                  - KeepEqual
                                  - dropequal
                                  - DropEqual
                                  type: string
                                modulus:
                                  description: |-
                                    modulus to take of the hash of the source label values.

                                    Only applicable when the action is \`HashMod\`.
                                  format: int64
                                  minimum: 0
                                  type: integer
                                regex:
                                  description: regex defines the regular expression
                                    against which the extracted value is matched.
                                  type: string
                                replacement:
                                  description: |-
                                    replacement value against which a Replace action is performed if the
                                    regular expression matches.

                                    Regex capture groups are available.
                                  type: string
                                separator:
                                  description: separator defines the string between
                                    concatenated SourceLabels.
                                  type: string
                                sourceLabels:
                                  description: |-
                                    sourceLabels defines the source labels select values from existing labels. Their content is
                                    concatenated using the configured Separator and matched against the
                                    configured regular expression.
                                  items:
                                    description: |-
                                      LabelName is a valid Prometheus label name.
                                      For Prometheus 3.x, a label name is valid if it contains UTF-8 characters.
                                      For Prometheus 2.x, a label name is only valid if it contains ASCII characters, letters, numbers, as well as underscores.
                                    type: string
                                  type: array
                                targetLabel:
                                  description: |-
                                    targetLabel defines the label to which the resulting string is written in a replacement.

                                    It is mandatory for \`Replace\`, \`HashMod\`, \`Lowercase\`, \`Uppercase\`,
                                    \`KeepEqual\` and \`DropEqual\` actions.

                                    Regex capture groups are available.
                                  type: string
                              type: object
                            type: array
                          scrapeTimeout:
                            description: |-
                              ScrapeTimeout to use when scraping metrics. Must not be greater than Interval.
                              If not specified, Prometheus' global scrape timeout is used.
                              Supported units: y, w, d, h, m, s, ms
                            pattern: ^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$
                            type: string
                        type: object
                    type: object
                  runtimeClass:
                    default: nvidia
                    type: string
                  use_ocp_driver_toolkit:
                    description: UseOpenShiftDriverToolkit indicates if DriverToolkit
                      image should be used on OpenShift to build and install driver
                      modules
                    type: boolean
                type: object
              psa:
                description: PSA defines spec for PodSecurityAdmission configuration
                properties:
                  enabled:
                    description: Enabled indicates if PodSecurityAdmission configuration
                      needs to be enabled for all Pods
                    type: boolean
                type: object
              psp:
                description: |-
                  Deprecated: Pod Security Policies are no longer supported. Please use PodSecurityAdmission instead
                  PSP defines spec for handling PodSecurityPolicies
                properties:
                  enabled:
                    description: Enabled indicates if PodSecurityPolicies needs to
                      be enabled for all Pods
                    type: boolean
                type: object
              sandboxDevicePlugin:
                description: SandboxDevicePlugin component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA Sandbox
                      Device Plugin through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Sandbox Device
                      Plugin pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA Sandbox Device Plugin image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA Sandbox Device Plugin image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA Sandbox Device Plugin image tag
                    type: string
                type: object
              sandboxWorkloads:
                description: SandboxWorkloads defines the spec for handling sandbox
                  workloads (i.e. Virtual Machines)
                properties:
                  defaultWorkload:
                    default: container
                    description: |-
                      DefaultWorkload indicates the default GPU workload type to configure
                      worker nodes in the cluster for
                    enum:
                    - container
                    - vm-passthrough
                    - vm-vgpu
                    type: string
                  enabled:
                    description: |-
                      Enabled indicates if the GPU Operator should manage additional operands required
                      for sandbox workloads (i.e. VFIO Manager, vGPU Manager, and additional device plugins)
                    type: boolean
                  mode:
                    default: kubevirt
                    description: |-
                      Mode indicates the sandbox mode. Accepted values are "kubevirt"
                      and "kata". The default value is "kubevirt".
                    enum:
                    - kubevirt
                    - kata
                    type: string
                type: object
              toolkit:
                description: Toolkit component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA Container
                      Toolkit through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Container Toolkit
                      pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA Container Toolkit image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  installDir:
                    default: /usr/local/nvidia
                    description: Toolkit install directory on the host
                    type: string
                  repository:
                    description: NVIDIA Container Toolkit image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA Container Toolkit image tag
                    type: string
                type: object
              validator:
                description: Validator defines the spec for operator-validator daemonset
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  cuda:
                    description: CUDA validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  driver:
                    description: Toolkit validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the Validator pod uses
                      the host's network namespace.
                    type: boolean
                  image:
                    description: Validator image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  plugin:
                    description: Plugin validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  repository:
                    description: Validator image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  toolkit:
                    description: Toolkit validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  version:
                    description: Validator image tag
                    type: string
                  vfioPCI:
                    description: VfioPCI validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  vgpuDevices:
                    description: VGPUDevices validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                  vgpuManager:
                    description: VGPUManager validator spec
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                    type: object
                type: object
              vfioManager:
                description: VFIOManager for configuration to deploy VFIO-PCI Manager
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  driverManager:
                    description: DriverManager represents configuration for NVIDIA
                      Driver Manager
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Image represents NVIDIA Driver Manager image
                          name
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullPolicy:
                        description: Image pull policy
                        type: string
                      imagePullSecrets:
                        description: Image pull secrets
                        items:
                          type: string
                        type: array
                      repository:
                        description: Repository represents Driver Managerrepository
                          path
                        type: string
                      version:
                        description: Version represents NVIDIA Driver Manager image
                          tag(version)
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of VFIO Manager is
                      enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the VFIO Manager pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: VFIO Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: VFIO Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: VFIO Manager image tag
                    type: string
                type: object
              vgpuDeviceManager:
                description: VGPUDeviceManager spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  config:
                    description: NVIDIA vGPU devices configuration for NVIDIA vGPU
                      Device Manager container
                    properties:
                      default:
                        default: default
                        description: Default config name within the ConfigMap
                        type: string
                      name:
                        description: ConfigMap name
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA vGPU Device
                      Manager is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the vGPU Device Manager
                      pod uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA vGPU Device Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA vGPU Device Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA vGPU Device Manager image tag
                    type: string
                type: object
              vgpuManager:
                description: VGPUManager component spec
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  driverManager:
                    description: DriverManager represents configuration for NVIDIA
                      Driver Manager initContainer
                    properties:
                      env:
                        description: 'Optional: List of environment variables'
                        items:
                          description: EnvVar represents an environment variable present
                            in a Container.
                          properties:
                            name:
                              description: Name of the environment variable.
                              type: string
                            value:
                              description: Value of the environment variable.
                              type: string
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Image represents NVIDIA Driver Manager image
                          name
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullPolicy:
                        description: Image pull policy
                        type: string
                      imagePullSecrets:
                        description: Image pull secrets
                        items:
                          type: string
                        type: array
                      repository:
                        description: Repository represents Driver Managerrepository
                          path
                        type: string
                      version:
                        description: Version represents NVIDIA Driver Manager image
                          tag(version)
                        type: string
                    type: object
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA vGPU Manager
                      through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the vGPU Manager pod
                      uses the host's network namespace.
                    type: boolean
                  image:
                    description: NVIDIA vGPU Manager  image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  kernelModuleConfig:
                    description: 'Optional: Kernel module configuration parameters
                      for the vGPU manager'
                    properties:
                      name:
                        type: string
                    type: object
                  repository:
                    description: NVIDIA vGPU Manager image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA vGPU Manager image tag
                    type: string
                type: object
            required:
            - daemonsets
            - dcgm
            - dcgmExporter
            - devicePlugin
            - driver
            - gfd
            - nodeStatusExporter
            - operator
            - toolkit
            type: object
          status:
            description: ClusterPolicyStatus defines the observed state of ClusterPolicy
            properties:
              conditions:
                description: Conditions is a list of conditions representing the ClusterPolicy's
                  current state.
                items:
                  description: Condition contains details for one aspect of the current
                    state of this API Resource.
                  properties:
                    lastTransitionTime:
                      description: |-
                        lastTransitionTime is the last time the condition transitioned from one status to another.
                        This should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable.
                      format: date-time
                      type: string
                    message:
                      description: |-
                        message is a human readable message indicating details about the transition.
                        This may be an empty string.
                      maxLength: 32768
                      type: string
                    observedGeneration:
                      description: |-
                        observedGeneration represents the .metadata.generation that the condition was set based upon.
                        For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date
                        with respect to the current state of the instance.
                      format: int64
                      minimum: 0
                      type: integer
                    reason:
                      description: |-
                        reason contains a programmatic identifier indicating the reason for the condition's last transition.
                        Producers of specific condition types may define expected values and meanings for this field,
                        and whether the values are considered a guaranteed API.
                        The value should be a CamelCase string.
                        This field may not be empty.
                      maxLength: 1024
                      minLength: 1
                      pattern: ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$
                      type: string
                    status:
                      description: status of the condition, one of True, False, Unknown.
                      enum:
                      - "True"
                      - "False"
                      - Unknown
                      type: string
                    type:
                      description: type of condition in CamelCase or in foo.example.com/CamelCase.
                      maxLength: 316
                      pattern: ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$
                      type: string
                  required:
                  - lastTransitionTime
                  - message
                  - reason
                  - status
                  - type
                  type: object
                type: array
              namespace:
                description: Namespace indicates a namespace in which the operator
                  is installed
                type: string
              state:
                description: State indicates status of ClusterPolicy
                enum:
                - ignored
                - ready
                - notReady
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
# Source: github.com/NVIDIA/gpu-operator @ tag v26.7.0 (10ee5b3638b89e11e949412aafa5ba99279c3721) : deployments/gpu-operator/crds/nvidia.com_gpuclusters.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.21.0
  name: gpuclusters.nvidia.com
spec:
  group: nvidia.com
  names:
    kind: GPUCluster
    listKind: GPUClusterList
    plural: gpuclusters
    shortNames:
    - gc
    singular: gpucluster
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: date
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: GPUCluster is the Schema for the gpuclusters API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: |-
              GPUClusterSpec defines the desired state of GPUCluster, the DRA-based
              software-enablement stack. Unlike ClusterPolicy, it does not manage the NVIDIA driver
              or the device-plugin; the driver is installed separately (host-installed or via an
              NVIDIADriver CR) and GPUCluster waits for driver readiness before proceeding.
            properties:
              daemonsets:
                description: |-
                  Daemonsets defines the common configuration applied to all DaemonSets deployed
                  by the GPUCluster controller.
                properties:
                  annotations:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Annotations is an unstructured key value map stored with a resource that may be
                      set by external tools to store and retrieve arbitrary metadata. They are not
                      queryable and should be preserved when modifying objects.
                    type: object
                  labels:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Map of string keys and values that can be used to organize and categorize
                      (scope and select) objects. May match selectors of replication controllers
                      and services.
                    type: object
                  podSecurityContext:
                    description: 'Optional: Set pod-level security context for all
                      DaemonSet pods (applies as defaults to all containers)'
                    properties:
                      appArmorProfile:
                        description: |-
                          appArmorProfile is the AppArmor options to use by the containers in this pod.
                          Note that this field cannot be set when spec.os.name is windows.
                        properties:
                          localhostProfile:
                            description: |-
                              localhostProfile indicates a profile loaded on the node that should be used.
                              The profile must be preconfigured on the node to work.
                              Must match the loaded name of the profile.
                              Must be set if and only if type is "Localhost".
                            type: string
                          type:
                            description: |-
                              type indicates which kind of AppArmor profile will be applied.
                              Valid options are:
                                Localhost - a profile pre-loaded on the node.
                                RuntimeDefault - the container runtime's default profile.
                                Unconfined - no AppArmor enforcement.
                            type: string
                        required:
                        - type
                        type: object
                      fsGroup:
                        description: |-
                          A special supplemental group that applies to all containers in a pod.
                          Some volume types allow the Kubelet to change the ownership of that volume
                          to be owned by the pod:

                          1. The owning GID will be the FSGroup
                          2. The setgid bit is set (new files created in the volume will be owned by FSGroup)
                          3. The permission bits are OR'd with rw-rw----

                          If unset, the Kubelet will not modify the ownership and permissions of any volume.
                          Note that this field cannot be set when spec.os.name is windows.
                        format: int64
                        type: integer
                      fsGroupChangePolicy:
                        description: |-
                          fsGroupChangePolicy defines behavior of changing ownership and permission of the volume
                          before being exposed inside Pod. This field will only apply to
                          volume types which support fsGroup based ownership(and permissions).
                          It will have no effect on ephemeral volume types such as: secret, configmaps
                          and emptydir.
                          Valid values are "OnRootMismatch" and "Always". If not specified, "Always" is used.
                          Note that this field cannot be set when spec.os.name is windows.
                        type: string
                      runAsGroup:
                        description: |-
                          The GID to run the entrypoint of the container process.
                          Uses runtime default if unset.
                          May also be set in SecurityContext.  If set in both SecurityContext and
                          PodSecurityContext, the value specified in SecurityContext takes precedence
                          for that container.
                          Note that this field cannot be set when spec.os.name is windows.
                        format: int64
                        type: integer
                      runAsNonRoot:
                        description: |-
                          Indicates that the container must run as a non-root user.
                          If true, the Kubelet will validate the image at runtime to ensure that it
                          does not run as UID 0 (root) and fail to start the container if it does.
                          If unset or false, no such validation will be performed.
                          May also be set in SecurityContext.  If set in both SecurityContext and
                          PodSecurityContext, the value specified in SecurityContext takes precedence.
                        type: boolean
                      runAsUser:
                        description: |-
                          The UID to run the entrypoint of the container process.
                          Defaults to user specified in image metadata if unspecified.
                          May also be set in SecurityContext.  If set in both SecurityContext and
                          PodSecurityContext, the value specified in SecurityContext takes precedence
                          for that container.
                          Note that this field cannot be set when spec.os.name is windows.
                        format: int64
                        type: integer
                      seLinuxChangePolicy:
                        description: |-
                          seLinuxChangePolicy defines how the container's SELinux label is applied to all volumes used by the Pod.
                          It has no effect on nodes that do not support SELinux or to volumes does not support SELinux.
                          Valid values are "MountOption" and "Recursive".

                          "Recursive" means relabeling of all files on all Pod volumes by the container runtime.
                          This may be slow for large volumes, but allows mixing privileged and unprivileged Pods sharing the same volume on the same node.

                          "MountOption" mounts all eligible Pod volumes with \`-o context\` mount option.
                          This requires all Pods that share the same volume to use the same SELinux label.
                          It is not possible to share the same volume among privileged and unprivileged Pods.
                          Eligible volumes are in-tree FibreChannel and iSCSI volumes, and all CSI volumes
                          whose CSI driver announces SELinux support by setting spec.seLinuxMount: true in their
                          CSIDriver instance. Other volumes are always re-labelled recursively.
                          "MountOption" value is allowed only when SELinuxMount feature gate is enabled.

                          If not specified and SELinuxMount feature gate is enabled, "MountOption" is used.
                          If not specified and SELinuxMount feature gate is disabled, "MountOption" is used for ReadWriteOncePod volumes
                          and "Recursive" for all other volumes.

                          This field affects only Pods that have SELinux label set, either in PodSecurityContext or in SecurityContext of all containers.

                          All Pods that use the same volume should use the same seLinuxChangePolicy, otherwise some pods can get stuck in ContainerCreating state.
                          Note that this field cannot be set when spec.os.name is windows.
                        type: string
                      seLinuxOptions:
                        description: |-
                          The SELinux context to be applied to all containers.
                          If unspecified, the container runtime will allocate a random SELinux context for each
                          container.  May also be set in SecurityContext.  If set in
                          both SecurityContext and PodSecurityContext, the value specified in SecurityContext
                          takes precedence for that container.
                          Note that this field cannot be set when spec.os.name is windows.
                        properties:
                          level:
                            description: Level is SELinux level label that applies
                              to the container.
                            type: string
                          role:
                            description: Role is a SELinux role label that applies
                              to the container.
                            type: string
                          type:
                            description: Type is a SELinux type label that applies
                              to the container.
                            type: string
                          user:
                            description: User is a SELinux user label that applies
                              to the container.
                            type: string
                        type: object
                      seccompProfile:
                        description: |-
                          The seccomp options to use by the containers in this pod.
                          Note that this field cannot be set when spec.os.name is windows.
                        properties:
                          localhostProfile:
                            description: |-
                              localhostProfile indicates a profile defined in a file on the node should be used.
                              The profile must be preconfigured on the node to work.
                              Must be a descending path, relative to the kubelet's configured seccomp profile location.
                              Must be set if type is "Localhost". Must NOT be set for any other type.
                            type: string
                          type:
                            description: |-
                              type indicates which kind of seccomp profile will be applied.
                              Valid options are:

                              Localhost - a profile defined in a file on the node should be used.
                              RuntimeDefault - the container runtime default profile should be used.
                              Unconfined - no profile should be applied.
                            type: string
                        required:
                        - type
                        type: object
                      supplementalGroups:
                        description: |-
                          A list of groups applied to the first process run in each container, in
                          addition to the container's primary GID and fsGroup (if specified).  If
                          the SupplementalGroupsPolicy feature is enabled, the
                          supplementalGroupsPolicy field determines whether these are in addition
                          to or instead of any group memberships defined in the container image.
                          If unspecified, no additional groups are added, though group memberships
                          defined in the container image may still be used, depending on the
                          supplementalGroupsPolicy field.
                          Note that this field cannot be set when spec.os.name is windows.
                        items:
                          format: int64
                          type: integer
                        type: array
                        x-kubernetes-list-type: atomic
                      supplementalGroupsPolicy:
                        description: |-
                          Defines how supplemental groups of the first container processes are calculated.
                          Valid values are "Merge" and "Strict". If not specified, "Merge" is used.
                          (Alpha) Using the field requires the SupplementalGroupsPolicy feature gate to be enabled
                          and the container runtime must implement support for this feature.
                          Note that this field cannot be set when spec.os.name is windows.
                        type: string
                      sysctls:
                        description: |-
                          Sysctls hold a list of namespaced sysctls used for the pod. Pods with unsupported
                          sysctls (by the container runtime) might fail to launch.
                          Note that this field cannot be set when spec.os.name is windows.
                        items:
                          description: Sysctl defines a kernel parameter to be set
                          properties:
                            name:
                              description: Name of a property to set
                              type: string
                            value:
                              description: Value of a property to set
                              type: string
                          required:
                          - name
                          - value
                          type: object
                        type: array
                        x-kubernetes-list-type: atomic
                      windowsOptions:
                        description: |-
                          The Windows specific settings applied to all containers.
                          If unspecified, the options within a container's SecurityContext will be used.
                          If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.
                          Note that this field cannot be set when spec.os.name is linux.
                        properties:
                          gmsaCredentialSpec:
                            description: |-
                              GMSACredentialSpec is where the GMSA admission webhook
                              (https://github.com/kubernetes-sigs/windows-gmsa) inlines the contents of the
                              GMSA credential spec named by the GMSACredentialSpecName field.
                            type: string
                          gmsaCredentialSpecName:
                            description: GMSACredentialSpecName is the name of the
                              GMSA credential spec to use.
                            type: string
                          hostProcess:
                            description: |-
                              HostProcess determines if a container should be run as a 'Host Process' container.
                              All of a Pod's containers must have the same effective HostProcess value
                              (it is not allowed to have a mix of HostProcess containers and non-HostProcess containers).
                              In addition, if HostProcess is true then HostNetwork must also be set to true.
                            type: boolean
                          runAsUserName:
                            description: |-
                              The UserName in Windows to run the entrypoint of the container process.
                              Defaults to the user specified in image metadata if unspecified.
                              May also be set in PodSecurityContext. If set in both SecurityContext and
                              PodSecurityContext, the value specified in SecurityContext takes precedence.
                            type: string
                        type: object
                    type: object
                  priorityClassName:
                    type: string
                  rollingUpdate:
                    description: 'Optional: Configuration for rolling update of all
                      DaemonSet pods'
                    properties:
                      maxUnavailable:
                        type: string
                    type: object
                  tolerations:
                    description: 'Optional: Set tolerations'
                    items:
                      description: |-
                        The pod this Toleration is attached to tolerates any taint that matches
                        the triple <key,value,effect> using the matching operator <operator>.
                      properties:
                        effect:
                          description: |-
                            Effect indicates the taint effect to match. Empty means match all taint effects.
                            When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.
                          type: string
                        key:
                          description: |-
                            Key is the taint key that the toleration applies to. Empty means match all taint keys.
                            If the key is empty, operator must be Exists; this combination means to match all values and all keys.
                          type: string
                        operator:
                          description: |-
                            Operator represents a key's relationship to the value.
                            Valid operators are Exists, Equal, Lt, and Gt. Defaults to Equal.
                            Exists is equivalent to wildcard for value, so that a pod can
                            tolerate all taints of a particular category.
                            Lt and Gt perform numeric comparisons (requires feature gate TaintTolerationComparisonOperators).
                          type: string
                        tolerationSeconds:
                          description: |-
                            TolerationSeconds represents the period of time the toleration (which must be
                            of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default,
                            it is not set, which means tolerate the taint forever (do not evict). Zero and
                            negative values will be treated as 0 (evict immediately) by the system.
                          format: int64
                          type: integer
                        value:
                          description: |-
                            Value is the taint value the toleration matches to.
                            If the operator is Exists, the value should be empty, otherwise just a regular string.
                          type: string
                      type: object
                    type: array
                  updateStrategy:
                    default: RollingUpdate
                    enum:
                    - RollingUpdate
                    - OnDelete
                    type: string
                type: object
              dcgm:
                description: |-
                  DCGM defines the spec for the standalone NVIDIA DCGM hostengine. Disabled by default;
                  when disabled, dcgm-exporter uses its embedded nv-hostengine. NOTE: the reused enabled
                  field carries no server-side default and its IsEnabled() treats nil as enabled, so the
                  controller must default nil enabled to disabled here.
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA DCGM Hostengine
                      as a separate pod is enabled.
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork indicates whether the DCGM pod uses the
                      host's network namespace.
                    type: boolean
                  hostPort:
                    description: 'Deprecated: HostPort represents host port that needs
                      to be bound for DCGM engine (Default: 5555)'
                    format: int32
                    type: integer
                  image:
                    description: NVIDIA DCGM image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA DCGM image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  version:
                    description: NVIDIA DCGM image tag
                    type: string
                type: object
              dcgmExporter:
                description: |-
                  DCGMExporter defines the spec for NVIDIA DCGM Exporter. Enabled by default, but the
                  reused enabled field carries no server-side default; the controller defaults nil enabled.
                properties:
                  annotations:
                    additionalProperties:
                      type: string
                    description: |-
                      Optional: Annotations is an unstructured key value map stored with a resource that may be
                      set by external tools to store and retrieve arbitrary metadata. They are not
                      queryable and should be preserved when modifying objects.
                    type: object
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  config:
                    description: 'Optional: Custom metrics configuration for NVIDIA
                      DCGM Exporter'
                    properties:
                      name:
                        description: ConfigMap name with file dcgm-metrics.csv for
                          metrics to be collected by NVIDIA DCGM Exporter
                        type: string
                    type: object
                  enablePodLabels:
                    description: |-
                      Enable Kubernetes pod labels as Prometheus label dimensions in DCGM exporter metrics.
                      (Requires cluster-level read access to pods.)
                    type: boolean
                  enablePodUID:
                    description: |-
                      Enable Kubernetes pod UID as a Prometheus label dimension in DCGM exporter metrics.
                      (Requires cluster-level read access to pods.)
                    type: boolean
                  enabled:
                    description: Enabled indicates if deployment of NVIDIA DCGM Exporter
                      through operator is enabled
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  hostNetwork:
                    description: HostNetwork allows the DCGM-Exporter daemon set to
                      expose metrics port on the host's network namespace.
                    type: boolean
                  hostPID:
                    description: HostPID allows the DCGM-Exporter daemon set to access
                      the host's PID namespace
                    type: boolean
                  hpcJobMapping:
                    description: 'Optional: HPC job mapping configuration for NVIDIA
                      DCGM Exporter'
                    properties:
                      directory:
                        description: |-
                          Directory path where HPC job mapping files are created by the workload manager
                          Defaults to /var/lib/dcgm-exporter/job-mapping if not specified
                        type: string
                      enabled:
                        description: Enable HPC job mapping for DCGM Exporter
                        type: boolean
                    type: object
                  image:
                    description: NVIDIA DCGM Exporter image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  podLabelAllowlistRegex:
                    description: |-
                      Regex list for filtering which Kubernetes pod labels are included in DCGM exporter metrics.
                      Empty means all pod labels are included.
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA DCGM Exporter image repository
                    type: string
                  resources:
                    description: 'Optional: Define resources requests and limits for
                      each pod'
                    properties:
                      limits:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Limits describes the maximum amount of compute resources allowed.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                      requests:
                        additionalProperties:
                          anyOf:
                          - type: integer
                          - type: string
                          pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                          x-kubernetes-int-or-string: true
                        description: |-
                          Requests describes the minimum amount of compute resources required.
                          If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                          otherwise to an implementation-defined value. Requests cannot exceed Limits.
                          More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                        type: object
                    type: object
                  service:
                    description: 'Optional: Service configuration for NVIDIA DCGM
                      Exporter'
                    properties:
                      internalTrafficPolicy:
                        description: InternalTrafficPolicy describes how nodes distribute
                          service traffic they receive on the ClusterIP.
                        type: string
                      type:
                        description: Type represents the ServiceType which describes
                          ingress methods for a service
                        type: string
                    type: object
                  serviceMonitor:
                    description: 'Optional: ServiceMonitor configuration for NVIDIA
                      DCGM Exporter'
                    properties:
                      additionalLabels:
                        additionalProperties:
                          type: string
                        description: AdditionalLabels to add to ServiceMonitor instance
                        type: object
                      enabled:
                        description: Enabled indicates if ServiceMonitor is deployed
                        type: boolean
                      honorLabels:
                        description: HonorLabels chooses the metric\u2019s labels on collisions
                          with target labels.
                        type: boolean
                      interval:
                        description: |-
                          Interval at which metrics should be scraped. If not specified, Prometheus\u2019 global scrape interval is used.
                          Supported units: y, w, d, h, m, s, ms
                        pattern: ^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$
                        type: string
                      relabelings:
                        description: Relabelings allows to rewrite labels on metric
                          sets
                        items:
                          description: |-
                            RelabelConfig allows dynamic rewriting of the label set for targets, alerts,
                            scraped samples and remote write samples.

                            More info: https://prometheus.io/docs/prometheus/latest/configuration/configuration/#relabel_config
                          properties:
                            action:
                              default: replace
                              description: |-
                                action to perform based on the regex matching.

                                \`Uppercase\` and \`Lowercase\` actions require Prometheus >= v2.36.0.
                                \`DropEqual\` and \`KeepEqual\` actions require Prometheus >= v2.41.0.

                                Default: "Replace"
                              enum:
                              - replace
                              - Replace
                              - keep
                              - Keep
                              - drop
                              - Drop
                              - hashmod
                              - HashMod
                              - labelmap
                              - LabelMap
                              - labeldrop
                              - LabelDrop
                              - labelkeep
                              - LabelKeep
                              - lowercase
                              - Lowercase
                              - uppercase
                              - Uppercase
                              - keepequal
                              - KeepEqual
                              - dropequal
                              - DropEqual
                              type: string
                            modulus:
                              description: |-
                                modulus to take of the hash of the source label values.

                                Only applicable when the action is \`HashMod\`.
                              format: int64
                              minimum: 0
                              type: integer
                            regex:
                              description: regex defines the regular expression against
                                which the extracted value is matched.
                              type: string
                            replacement:
                              description: |-
                                replacement value against which a Replace action is performed if the
                                regular expression matches.

                                Regex capture groups are available.
                              type: string
                            separator:
                              description: separator defines the string between concatenated
                                SourceLabels.
                              type: string
                            sourceLabels:
                              description: |-
                                sourceLabels defines the source labels select values from existing labels. Their content is
                                concatenated using the configured Separator and matched against the
                                configured regular expression.
                              items:
                                description: |-
                                  LabelName is a valid Prometheus label name.
                                  For Prometheus 3.x, a label name is valid if it contains UTF-8 characters.
                                  For Prometheus 2.x, a label name is only valid if it contains ASCII characters, letters, numbers, as well as underscores.
                                type: string
                              type: array
                            targetLabel:
                              description: |-
                                targetLabel defines the label to which the resulting string is written in a replacement.

                                It is mandatory for \`Replace\`, \`HashMod\`, \`Lowercase\`, \`Uppercase\`,
                                \`KeepEqual\` and \`DropEqual\` actions.

                                Regex capture groups are available.
                              type: string
                          type: object
                        type: array
                      scrapeTimeout:
                        description: |-
                          ScrapeTimeout to use when scraping metrics. Must not be greater than Interval.
                          If not specified, Prometheus' global scrape timeout is used.
                          Supported units: y, w, d, h, m, s, ms
                        pattern: ^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$
                        type: string
                    type: object
                  version:
                    description: NVIDIA DCGM Exporter image tag
                    type: string
                type: object
              draDriver:
                description: DRADriver defines the spec for the NVIDIA DRA driver
                  stack (gpus + computeDomains).
                properties:
                  computeDomains:
                    description: ComputeDomains configures the compute-domain capability
                      of the DRA driver.
                    properties:
                      controller:
                        description: Controller configures the compute-domain controller
                          Deployment.
                        properties:
                          env:
                            description: 'Optional: List of environment variables'
                            items:
                              description: EnvVar represents an environment variable
                                present in a Container.
                              properties:
                                name:
                                  description: Name of the environment variable.
                                  type: string
                                value:
                                  description: Value of the environment variable.
                                  type: string
                              required:
                              - name
                              type: object
                            type: array
                          resources:
                            description: 'Optional: Define resources requests and
                              limits for the controller container'
                            properties:
                              limits:
                                additionalProperties:
                                  anyOf:
                                  - type: integer
                                  - type: string
                                  pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                  x-kubernetes-int-or-string: true
                                description: |-
                                  Limits describes the maximum amount of compute resources allowed.
                                  More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                                type: object
                              requests:
                                additionalProperties:
                                  anyOf:
                                  - type: integer
                                  - type: string
                                  pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                  x-kubernetes-int-or-string: true
                                description: |-
                                  Requests describes the minimum amount of compute resources required.
                                  If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                  otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                  More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                                type: object
                            type: object
                        type: object
                      enabled:
                        default: true
                        description: Enabled indicates if the computeDomains capability
                          of the DRA driver is enabled.
                        type: boolean
                      kubeletPlugin:
                        description: KubeletPlugin configures the kubelet-plugin workload
                          for the computeDomains capability.
                        properties:
                          env:
                            description: 'Optional: List of environment variables'
                            items:
                              description: EnvVar represents an environment variable
                                present in a Container.
                              properties:
                                name:
                                  description: Name of the environment variable.
                                  type: string
                                value:
                                  description: Value of the environment variable.
                                  type: string
                              required:
                              - name
                              type: object
                            type: array
                          healthcheck:
                            description: 'Optional: Configure the container''s gRPC
                              health service and its probes'
                            properties:
                              enabled:
                                default: true
                                type: boolean
                              port:
                                description: Defaults to 51516 for the gpus container
                                  and 51515 for the computeDomains container.
                                format: int32
                                maximum: 65535
                                minimum: 1
                                type: integer
                            type: object
                          resources:
                            description: 'Optional: Define resources requests and
                              limits for the kubelet-plugin container'
                            properties:
                              limits:
                                additionalProperties:
                                  anyOf:
                                  - type: integer
                                  - type: string
                                  pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                  x-kubernetes-int-or-string: true
                                description: |-
                                  Limits describes the maximum amount of compute resources allowed.
                                  More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                                type: object
                              requests:
                                additionalProperties:
                                  anyOf:
                                  - type: integer
                                  - type: string
                                  pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                  x-kubernetes-int-or-string: true
                                description: |-
                                  Requests describes the minimum amount of compute resources required.
                                  If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                  otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                  More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                                type: object
                            type: object
                        type: object
                    type: object
                  featureGates:
                    additionalProperties:
                      type: boolean
                    description: |-
                      FeatureGates is a map of feature gate names to a boolean enabling or disabling each.
                      It is rendered as the FEATURE_GATES environment variable on the DRA driver containers.
                    type: object
                  gpus:
                    description: GPUs configures the gpu.nvidia.com capability of
                      the DRA driver.
                    properties:
                      kubeletPlugin:
                        description: KubeletPlugin configures the kubelet-plugin workload
                          for the gpus capability.
                        properties:
                          env:
                            description: 'Optional: List of environment variables'
                            items:
                              description: EnvVar represents an environment variable
                                present in a Container.
                              properties:
                                name:
                                  description: Name of the environment variable.
                                  type: string
                                value:
                                  description: Value of the environment variable.
                                  type: string
                              required:
                              - name
                              type: object
                            type: array
                          healthcheck:
                            description: 'Optional: Configure the container''s gRPC
                              health service and its probes'
                            properties:
                              enabled:
                                default: true
                                type: boolean
                              port:
                                description: Defaults to 51516 for the gpus container
                                  and 51515 for the computeDomains container.
                                format: int32
                                maximum: 65535
                                minimum: 1
                                type: integer
                            type: object
                          resources:
                            description: 'Optional: Define resources requests and
                              limits for the kubelet-plugin container'
                            properties:
                              limits:
                                additionalProperties:
                                  anyOf:
                                  - type: integer
                                  - type: string
                                  pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                  x-kubernetes-int-or-string: true
                                description: |-
                                  Limits describes the maximum amount of compute resources allowed.
                                  More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                                type: object
                              requests:
                                additionalProperties:
                                  anyOf:
                                  - type: integer
                                  - type: string
                                  pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                  x-kubernetes-int-or-string: true
                                description: |-
                                  Requests describes the minimum amount of compute resources required.
                                  If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                  otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                  More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                                type: object
                            type: object
                        type: object
                    type: object
                  image:
                    description: NVIDIA DRA driver image name
                    pattern: ^[a-zA-Z0-9\\-]+$
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA DRA driver image repository
                    type: string
                  version:
                    description: NVIDIA DRA driver image tag
                    type: string
                type: object
              hostPaths:
                description: HostPaths defines the host paths used in host-path volumes
                  for various components.
                properties:
                  driverInstallDir:
                    description: |-
                      DriverInstallDir represents the root at which driver files including libraries,
                      config files, and executables can be found.
                    type: string
                  kubeletRootDir:
                    default: /var/lib/kubelet
                    description: |-
                      KubeletRootDir represents the location of the kubelet root directory.
                      If empty, it will default to "/var/lib/kubelet".
                    type: string
                type: object
            required:
            - draDriver
            type: object
          status:
            description: GPUClusterStatus defines the observed state of GPUCluster
            properties:
              conditions:
                description: Conditions is a list of conditions representing the GPUCluster's
                  current state.
                items:
                  description: Condition contains details for one aspect of the current
                    state of this API Resource.
                  properties:
                    lastTransitionTime:
                      description: |-
                        lastTransitionTime is the last time the condition transitioned from one status to another.
                        This should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable.
                      format: date-time
                      type: string
                    message:
                      description: |-
                        message is a human readable message indicating details about the transition.
                        This may be an empty string.
                      maxLength: 32768
                      type: string
                    observedGeneration:
                      description: |-
                        observedGeneration represents the .metadata.generation that the condition was set based upon.
                        For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date
                        with respect to the current state of the instance.
                      format: int64
                      minimum: 0
                      type: integer
                    reason:
                      description: |-
                        reason contains a programmatic identifier indicating the reason for the condition's last transition.
                        Producers of specific condition types may define expected values and meanings for this field,
                        and whether the values are considered a guaranteed API.
                        The value should be a CamelCase string.
                        This field may not be empty.
                      maxLength: 1024
                      minLength: 1
                      pattern: ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$
                      type: string
                    status:
                      description: status of the condition, one of True, False, Unknown.
                      enum:
                      - "True"
                      - "False"
                      - Unknown
                      type: string
                    type:
                      description: type of condition in CamelCase or in foo.example.com/CamelCase.
                      maxLength: 316
                      pattern: ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$
                      type: string
                  required:
                  - lastTransitionTime
                  - message
                  - reason
                  - status
                  - type
                  type: object
                type: array
              namespace:
                description: Namespace indicates the namespace in which the operator
                  and operands are installed
                type: string
              state:
                description: State indicates the status of the GPUCluster instance
                enum:
                - ready
                - notReady
                - disabled
                type: string
            required:
            - state
            type: object
        type: object
        x-kubernetes-validations:
        - message: GPUCluster is a singleton, metadata.name must be 'gpu-cluster'
          rule: self.metadata.name == 'gpu-cluster'
    served: true
    storage: true
    subresources:
      status: {}
# Source: github.com/NVIDIA/gpu-operator @ tag v26.7.0 (10ee5b3638b89e11e949412aafa5ba99279c3721) : deployments/gpu-operator/crds/nvidia.com_nvidiadrivers.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.21.0
  name: nvidiadrivers.nvidia.com
spec:
  group: nvidia.com
  names:
    kind: NVIDIADriver
    listKind: NVIDIADriverList
    plural: nvidiadrivers
    shortNames:
    - nvd
    - nvdriver
    - nvdrivers
    singular: nvidiadriver
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .spec.default
      name: Default
      type: boolean
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: NVIDIADriver is the Schema for the nvidiadrivers API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: |-
              NVIDIADriverSpec defines the desired state of NVIDIADriver.
              The CEL validation allows non-default drivers to use nodeSelector, but requires
              default drivers to leave nodeSelector unset or empty.
            properties:
              annotations:
                additionalProperties:
                  type: string
                description: |-
                  Optional: Annotations is an unstructured key value map stored with a resource that may be
                  set by external tools to store and retrieve arbitrary metadata. They are not
                  queryable and should be preserved when modifying objects.
                type: object
              args:
                description: 'Optional: List of arguments'
                items:
                  type: string
                type: array
              certConfig:
                description: 'Optional: Custom certificates configuration for NVIDIA
                  Driver container'
                properties:
                  name:
                    type: string
                type: object
              default:
                default: false
                description: |-
                  Default indicates that this NVIDIADriver acts as the fallback driver daemon set manager for GPU nodes
                  that do not match any non-default NVIDIADriver nodeSelector.
                type: boolean
              driverType:
                default: gpu
                description: DriverType defines NVIDIA driver type
                enum:
                - gpu
                - vgpu
                - vgpu-host-manager
                type: string
                x-kubernetes-validations:
                - message: driverType is an immutable field. Please create a new NvidiaDriver
                    resource instead when you want to change this setting.
                  rule: self == oldSelf
              env:
                description: 'Optional: List of environment variables'
                items:
                  description: EnvVar represents an environment variable present in
                    a Container.
                  properties:
                    name:
                      description: Name of the environment variable.
                      type: string
                    value:
                      description: Value of the environment variable.
                      type: string
                  required:
                  - name
                  type: object
                type: array
              gdrcopy:
                description: GDRCopy defines the spec for GDRCopy driver
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if GDRCopy is enabled through GPU
                      operator
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: GDRCopy driver image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: GDRCopy diver image repository
                    type: string
                  version:
                    description: GDRCopy driver image tag
                    type: string
                type: object
              gds:
                description: GPUDirectStorage defines the spec for GDS driver
                properties:
                  args:
                    description: 'Optional: List of arguments'
                    items:
                      type: string
                    type: array
                  enabled:
                    description: Enabled indicates if GPUDirect Storage is enabled
                      through GPU operator
                    type: boolean
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: NVIDIA GPUDirect Storage Driver image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: NVIDIA GPUDirect Storage Driver image repository
                    type: string
                  version:
                    description: NVIDIA GPUDirect Storage Driver image tag
                    type: string
                type: object
              hostNetwork:
                description: HostNetwork indicates whether the Driver pod uses the
                  host's network namespace.
                type: boolean
              image:
                default: nvcr.io/nvidia/driver
                description: NVIDIA Driver container image name
                type: string
              imagePullPolicy:
                description: Image pull policy
                type: string
              imagePullSecrets:
                description: Image pull secrets
                items:
                  type: string
                type: array
              kernelModuleConfig:
                description: 'Optional: Kernel module configuration parameters for
                  the NVIDIA Driver'
                properties:
                  name:
                    type: string
                type: object
              kernelModuleType:
                default: auto
                description: |-
                  KernelModuleType represents the type of driver kernel modules to be used when installing the GPU driver.
                  Accepted values are auto, proprietary and open. NOTE: If auto is chosen, it means that the recommended kernel module
                  type is chosen based on the GPU devices on the host and the driver branch used
                enum:
                - auto
                - open
                - proprietary
                type: string
              labels:
                additionalProperties:
                  type: string
                description: |-
                  Optional: Map of string keys and values that can be used to organize and categorize
                  (scope and select) objects. May match selectors of replication controllers
                  and services.
                type: object
              licensingConfig:
                description: 'Optional: Licensing configuration for NVIDIA vGPU licensing'
                properties:
                  name:
                    description: 'Deprecated: ConfigMapName has been deprecated in
                      favour of SecretName. Please use secrets to handle the licensing
                      server configuration more securely'
                    type: string
                  nlsEnabled:
                    description: NLSEnabled indicates if NVIDIA Licensing System is
                      used for licensing.
                    type: boolean
                  secretName:
                    type: string
                type: object
              livenessProbe:
                description: NVIDIA Driver container liveness probe settings
                properties:
                  failureThreshold:
                    description: |-
                      Minimum consecutive failures for the probe to be considered failed after having succeeded.
                      Defaults to 3. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  initialDelaySeconds:
                    description: |-
                      Number of seconds after the container has started before liveness probes are initiated.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    type: integer
                  periodSeconds:
                    description: |-
                      How often (in seconds) to perform the probe.
                      Default to 10 seconds. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  successThreshold:
                    description: |-
                      Minimum consecutive successes for the probe to be considered successful after having failed.
                      Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  timeoutSeconds:
                    description: |-
                      Number of seconds after which the probe times out.
                      Defaults to 1 second. Minimum value is 1.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    minimum: 1
                    type: integer
                type: object
              manager:
                description: Manager represents configuration for NVIDIA Driver Manager
                  initContainer
                properties:
                  env:
                    description: 'Optional: List of environment variables'
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: Name of the environment variable.
                          type: string
                        value:
                          description: Value of the environment variable.
                          type: string
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Image represents NVIDIA Driver Manager image name
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullPolicy:
                    description: Image pull policy
                    type: string
                  imagePullSecrets:
                    description: Image pull secrets
                    items:
                      type: string
                    type: array
                  repository:
                    description: Repository represents Driver Managerrepository path
                    type: string
                  version:
                    description: Version represents NVIDIA Driver Manager image tag(version)
                    type: string
                type: object
              nodeAffinity:
                description: Affinity specifies node affinity rules for driver pods
                properties:
                  preferredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      The scheduler will prefer to schedule pods to nodes that satisfy
                      the affinity expressions specified by this field, but it may choose
                      a node that violates one or more of the expressions. The node that is
                      most preferred is the one with the greatest sum of weights, i.e.
                      for each node that meets all of the scheduling requirements (resource
                      request, requiredDuringScheduling affinity expressions, etc.),
                      compute a sum by iterating through the elements of this field and adding
                      "weight" to the sum if the node matches the corresponding matchExpressions; the
                      node(s) with the highest sum are the most preferred.
                    items:
                      description: |-
                        An empty preferred scheduling term matches all objects with implicit weight 0
                        (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).
                      properties:
                        preference:
                          description: A node selector term, associated with the corresponding
                            weight.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        weight:
                          description: Weight associated with matching the corresponding
                            nodeSelectorTerm, in the range 1-100.
                          format: int32
                          type: integer
                      required:
                      - preference
                      - weight
                      type: object
                    type: array
                    x-kubernetes-list-type: atomic
                  requiredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      If the affinity requirements specified by this field are not met at
                      scheduling time, the pod will not be scheduled onto the node.
                      If the affinity requirements specified by this field cease to be met
                      at some point during pod execution (e.g. due to an update), the system
                      may or may not try to eventually evict the pod from its node.
                    properties:
                      nodeSelectorTerms:
                        description: Required. A list of node selector terms. The
                          terms are ORed.
                        items:
                          description: |-
                            A null or empty node selector term matches no objects. The requirements of
                            them are ANDed.
                            The TopologySelectorTerm type implements a subset of the NodeSelectorTerm.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        type: array
                        x-kubernetes-list-type: atomic
                    required:
                    - nodeSelectorTerms
                    type: object
                    x-kubernetes-map-type: atomic
                type: object
              nodeSelector:
                additionalProperties:
                  type: string
                description: NodeSelector specifies a selector for installation of
                  NVIDIA driver
                type: object
              podSecurityContext:
                description: 'Optional: Set pod-level security context for driver
                  pod'
                properties:
                  appArmorProfile:
                    description: |-
                      appArmorProfile is the AppArmor options to use by the containers in this pod.
                      Note that this field cannot be set when spec.os.name is windows.
                    properties:
                      localhostProfile:
                        description: |-
                          localhostProfile indicates a profile loaded on the node that should be used.
                          The profile must be preconfigured on the node to work.
                          Must match the loaded name of the profile.
                          Must be set if and only if type is "Localhost".
                        type: string
                      type:
                        description: |-
                          type indicates which kind of AppArmor profile will be applied.
                          Valid options are:
                            Localhost - a profile pre-loaded on the node.
                            RuntimeDefault - the container runtime's default profile.
                            Unconfined - no AppArmor enforcement.
                        type: string
                    required:
                    - type
                    type: object
                  fsGroup:
                    description: |-
                      A special supplemental group that applies to all containers in a pod.
                      Some volume types allow the Kubelet to change the ownership of that volume
                      to be owned by the pod:

                      1. The owning GID will be the FSGroup
                      2. The setgid bit is set (new files created in the volume will be owned by FSGroup)
                      3. The permission bits are OR'd with rw-rw----

                      If unset, the Kubelet will not modify the ownership and permissions of any volume.
                      Note that this field cannot be set when spec.os.name is windows.
                    format: int64
                    type: integer
                  fsGroupChangePolicy:
                    description: |-
                      fsGroupChangePolicy defines behavior of changing ownership and permission of the volume
                      before being exposed inside Pod. This field will only apply to
                      volume types which support fsGroup based ownership(and permissions).
                      It will have no effect on ephemeral volume types such as: secret, configmaps
                      and emptydir.
                      Valid values are "OnRootMismatch" and "Always". If not specified, "Always" is used.
                      Note that this field cannot be set when spec.os.name is windows.
                    type: string
                  runAsGroup:
                    description: |-
                      The GID to run the entrypoint of the container process.
                      Uses runtime default if unset.
                      May also be set in SecurityContext.  If set in both SecurityContext and
                      PodSecurityContext, the value specified in SecurityContext takes precedence
                      for that container.
                      Note that this field cannot be set when spec.os.name is windows.
                    format: int64
                    type: integer
                  runAsNonRoot:
                    description: |-
                      Indicates that the container must run as a non-root user.
                      If true, the Kubelet will validate the image at runtime to ensure that it
                      does not run as UID 0 (root) and fail to start the container if it does.
                      If unset or false, no such validation will be performed.
                      May also be set in SecurityContext.  If set in both SecurityContext and
                      PodSecurityContext, the value specified in SecurityContext takes precedence.
                    type: boolean
                  runAsUser:
                    description: |-
                      The UID to run the entrypoint of the container process.
                      Defaults to user specified in image metadata if unspecified.
                      May also be set in SecurityContext.  If set in both SecurityContext and
                      PodSecurityContext, the value specified in SecurityContext takes precedence
                      for that container.
                      Note that this field cannot be set when spec.os.name is windows.
                    format: int64
                    type: integer
                  seLinuxChangePolicy:
                    description: |-
                      seLinuxChangePolicy defines how the container's SELinux label is applied to all volumes used by the Pod.
                      It has no effect on nodes that do not support SELinux or to volumes does not support SELinux.
                      Valid values are "MountOption" and "Recursive".

                      "Recursive" means relabeling of all files on all Pod volumes by the container runtime.
                      This may be slow for large volumes, but allows mixing privileged and unprivileged Pods sharing the same volume on the same node.

                      "MountOption" mounts all eligible Pod volumes with \`-o context\` mount option.
                      This requires all Pods that share the same volume to use the same SELinux label.
                      It is not possible to share the same volume among privileged and unprivileged Pods.
                      Eligible volumes are in-tree FibreChannel and iSCSI volumes, and all CSI volumes
                      whose CSI driver announces SELinux support by setting spec.seLinuxMount: true in their
                      CSIDriver instance. Other volumes are always re-labelled recursively.
                      "MountOption" value is allowed only when SELinuxMount feature gate is enabled.

                      If not specified and SELinuxMount feature gate is enabled, "MountOption" is used.
                      If not specified and SELinuxMount feature gate is disabled, "MountOption" is used for ReadWriteOncePod volumes
                      and "Recursive" for all other volumes.

                      This field affects only Pods that have SELinux label set, either in PodSecurityContext or in SecurityContext of all containers.

                      All Pods that use the same volume should use the same seLinuxChangePolicy, otherwise some pods can get stuck in ContainerCreating state.
                      Note that this field cannot be set when spec.os.name is windows.
                    type: string
                  seLinuxOptions:
                    description: |-
                      The SELinux context to be applied to all containers.
                      If unspecified, the container runtime will allocate a random SELinux context for each
                      container.  May also be set in SecurityContext.  If set in
                      both SecurityContext and PodSecurityContext, the value specified in SecurityContext
                      takes precedence for that container.
                      Note that this field cannot be set when spec.os.name is windows.
                    properties:
                      level:
                        description: Level is SELinux level label that applies to
                          the container.
                        type: string
                      role:
                        description: Role is a SELinux role label that applies to
                          the container.
                        type: string
                      type:
                        description: Type is a SELinux type label that applies to
                          the container.
                        type: string
                      user:
                        description: User is a SELinux user label that applies to
                          the container.
                        type: string
                    type: object
                  seccompProfile:
                    description: |-
                      The seccomp options to use by the containers in this pod.
                      Note that this field cannot be set when spec.os.name is windows.
                    properties:
                      localhostProfile:
                        description: |-
                          localhostProfile indicates a profile defined in a file on the node should be used.
                          The profile must be preconfigured on the node to work.
                          Must be a descending path, relative to the kubelet's configured seccomp profile location.
                          Must be set if type is "Localhost". Must NOT be set for any other type.
                        type: string
                      type:
                        description: |-
                          type indicates which kind of seccomp profile will be applied.
                          Valid options are:

                          Localhost - a profile defined in a file on the node should be used.
                          RuntimeDefault - the container runtime default profile should be used.
                          Unconfined - no profile should be applied.
                        type: string
                    required:
                    - type
                    type: object
                  supplementalGroups:
                    description: |-
                      A list of groups applied to the first process run in each container, in
                      addition to the container's primary GID and fsGroup (if specified).  If
                      the SupplementalGroupsPolicy feature is enabled, the
                      supplementalGroupsPolicy field determines whether these are in addition
                      to or instead of any group memberships defined in the container image.
                      If unspecified, no additional groups are added, though group memberships
                      defined in the container image may still be used, depending on the
                      supplementalGroupsPolicy field.
                      Note that this field cannot be set when spec.os.name is windows.
                    items:
                      format: int64
                      type: integer
                    type: array
                    x-kubernetes-list-type: atomic
                  supplementalGroupsPolicy:
                    description: |-
                      Defines how supplemental groups of the first container processes are calculated.
                      Valid values are "Merge" and "Strict". If not specified, "Merge" is used.
                      (Alpha) Using the field requires the SupplementalGroupsPolicy feature gate to be enabled
                      and the container runtime must implement support for this feature.
                      Note that this field cannot be set when spec.os.name is windows.
                    type: string
                  sysctls:
                    description: |-
                      Sysctls hold a list of namespaced sysctls used for the pod. Pods with unsupported
                      sysctls (by the container runtime) might fail to launch.
                      Note that this field cannot be set when spec.os.name is windows.
                    items:
                      description: Sysctl defines a kernel parameter to be set
                      properties:
                        name:
                          description: Name of a property to set
                          type: string
                        value:
                          description: Value of a property to set
                          type: string
                      required:
                      - name
                      - value
                      type: object
                    type: array
                    x-kubernetes-list-type: atomic
                  windowsOptions:
                    description: |-
                      The Windows specific settings applied to all containers.
                      If unspecified, the options within a container's SecurityContext will be used.
                      If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.
                      Note that this field cannot be set when spec.os.name is linux.
                    properties:
                      gmsaCredentialSpec:
                        description: |-
                          GMSACredentialSpec is where the GMSA admission webhook
                          (https://github.com/kubernetes-sigs/windows-gmsa) inlines the contents of the
                          GMSA credential spec named by the GMSACredentialSpecName field.
                        type: string
                      gmsaCredentialSpecName:
                        description: GMSACredentialSpecName is the name of the GMSA
                          credential spec to use.
                        type: string
                      hostProcess:
                        description: |-
                          HostProcess determines if a container should be run as a 'Host Process' container.
                          All of a Pod's containers must have the same effective HostProcess value
                          (it is not allowed to have a mix of HostProcess containers and non-HostProcess containers).
                          In addition, if HostProcess is true then HostNetwork must also be set to true.
                        type: boolean
                      runAsUserName:
                        description: |-
                          The UserName in Windows to run the entrypoint of the container process.
                          Defaults to the user specified in image metadata if unspecified.
                          May also be set in PodSecurityContext. If set in both SecurityContext and
                          PodSecurityContext, the value specified in SecurityContext takes precedence.
                        type: string
                    type: object
                type: object
              priorityClassName:
                description: 'Optional: Set priorityClassName'
                type: string
              rdma:
                description: GPUDirectRDMA defines the spec for NVIDIA Peer Memory
                  driver
                properties:
                  enabled:
                    description: Enabled indicates if GPUDirect RDMA is enabled through
                      GPU operator
                    type: boolean
                  useHostMofed:
                    description: UseHostMOFED indicates to use MOFED drivers directly
                      installed on the host to enable GPUDirect RDMA
                    type: boolean
                type: object
              readinessProbe:
                description: NVIDIA Driver container readiness probe settings
                properties:
                  failureThreshold:
                    description: |-
                      Minimum consecutive failures for the probe to be considered failed after having succeeded.
                      Defaults to 3. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  initialDelaySeconds:
                    description: |-
                      Number of seconds after the container has started before liveness probes are initiated.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    type: integer
                  periodSeconds:
                    description: |-
                      How often (in seconds) to perform the probe.
                      Default to 10 seconds. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  successThreshold:
                    description: |-
                      Minimum consecutive successes for the probe to be considered successful after having failed.
                      Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  timeoutSeconds:
                    description: |-
                      Number of seconds after which the probe times out.
                      Defaults to 1 second. Minimum value is 1.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    minimum: 1
                    type: integer
                type: object
              repoConfig:
                description: 'Optional: Custom repo configuration for NVIDIA Driver
                  container'
                properties:
                  name:
                    type: string
                type: object
              repository:
                description: NVIDIA Driver repository
                type: string
              resources:
                description: 'Optional: Define resources requests and limits for each
                  pod'
                properties:
                  limits:
                    additionalProperties:
                      anyOf:
                      - type: integer
                      - type: string
                      pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                      x-kubernetes-int-or-string: true
                    description: |-
                      Limits describes the maximum amount of compute resources allowed.
                      More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                    type: object
                  requests:
                    additionalProperties:
                      anyOf:
                      - type: integer
                      - type: string
                      pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                      x-kubernetes-int-or-string: true
                    description: |-
                      Requests describes the minimum amount of compute resources required.
                      If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                      otherwise to an implementation-defined value. Requests cannot exceed Limits.
                      More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                    type: object
                type: object
              secretEnv:
                description: 'Optional: SecretEnv represents the name of the Kubernetes
                  Secret with secret environment variables for the NVIDIA Driver'
                type: string
              startupProbe:
                description: NVIDIA Driver container startup probe settings
                properties:
                  failureThreshold:
                    description: |-
                      Minimum consecutive failures for the probe to be considered failed after having succeeded.
                      Defaults to 3. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  initialDelaySeconds:
                    description: |-
                      Number of seconds after the container has started before liveness probes are initiated.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    type: integer
                  periodSeconds:
                    description: |-
                      How often (in seconds) to perform the probe.
                      Default to 10 seconds. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  successThreshold:
                    description: |-
                      Minimum consecutive successes for the probe to be considered successful after having failed.
                      Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.
                    format: int32
                    minimum: 1
                    type: integer
                  timeoutSeconds:
                    description: |-
                      Number of seconds after which the probe times out.
                      Defaults to 1 second. Minimum value is 1.
                      More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
                    format: int32
                    minimum: 1
                    type: integer
                type: object
              tolerations:
                description: 'Optional: Set tolerations'
                items:
                  description: |-
                    The pod this Toleration is attached to tolerates any taint that matches
                    the triple <key,value,effect> using the matching operator <operator>.
                  properties:
                    effect:
                      description: |-
                        Effect indicates the taint effect to match. Empty means match all taint effects.
                        When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.
                      type: string
                    key:
                      description: |-
                        Key is the taint key that the toleration applies to. Empty means match all taint keys.
                        If the key is empty, operator must be Exists; this combination means to match all values and all keys.
                      type: string
                    operator:
                      description: |-
                        Operator represents a key's relationship to the value.
                        Valid operators are Exists, Equal, Lt, and Gt. Defaults to Equal.
                        Exists is equivalent to wildcard for value, so that a pod can
                        tolerate all taints of a particular category.
                        Lt and Gt perform numeric comparisons (requires feature gate TaintTolerationComparisonOperators).
                      type: string
                    tolerationSeconds:
                      description: |-
                        TolerationSeconds represents the period of time the toleration (which must be
                        of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default,
                        it is not set, which means tolerate the taint forever (do not evict). Zero and
                        negative values will be treated as 0 (evict immediately) by the system.
                      format: int64
                      type: integer
                    value:
                      description: |-
                        Value is the taint value the toleration matches to.
                        If the operator is Exists, the value should be empty, otherwise just a regular string.
                      type: string
                  type: object
                type: array
              upgradePolicy:
                description: UpgradePolicy allows to control automatic upgrade of
                  the driver on nodes
                properties:
                  autoUpgrade:
                    default: true
                    description: |-
                      AutoUpgrade is a switch for automatic upgrade feature.
                      If set to false all other options are ignored.
                    type: boolean
                  drain:
                    description: DrainSpec describes configuration for node drain
                      during automatic upgrade
                    properties:
                      deleteEmptyDir:
                        default: false
                        description: |-
                          DeleteEmptyDir indicates if should continue even if there are pods using emptyDir
                          (local data that will be deleted when the node is drained)
                        type: boolean
                      enable:
                        default: false
                        description: Enable indicates if node draining is allowed
                          during upgrade
                        type: boolean
                      force:
                        default: false
                        description: Force indicates if force draining is allowed
                        type: boolean
                      podSelector:
                        description: |-
                          PodSelector specifies a label selector to filter pods on the node that need to be drained
                          For more details on label selectors, see:
                          https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                        type: string
                      timeoutSeconds:
                        default: 300
                        description: TimeoutSecond specifies the length of time in
                          seconds to wait before giving up drain, zero means infinite
                        minimum: 0
                        type: integer
                    type: object
                  maxParallelUpgrades:
                    default: 1
                    description: |-
                      MaxParallelUpgrades indicates how many nodes can be upgraded in parallel.
                      0 means no limit, all nodes will be upgraded in parallel.
                    minimum: 0
                    type: integer
                  maxUnavailable:
                    anyOf:
                    - type: integer
                    - type: string
                    default: 25%
                    description: |-
                      MaxUnavailable is the maximum number of nodes with the driver installed, that can be unavailable during the upgrade.
                      Value can be an absolute number (ex: 5) or a percentage of total nodes at the start of upgrade (ex: 10%).
                      Absolute number is calculated from percentage by rounding up.
                      By default, a fixed value of 25% is used.
                    x-kubernetes-int-or-string: true
                  podDeletion:
                    description: PodDeletionSpec describes configuration for deletion
                      of pods using special resources during automatic upgrade
                    properties:
                      deleteEmptyDir:
                        default: false
                        description: |-
                          DeleteEmptyDir indicates if should continue even if there are pods using emptyDir
                          (local data that will be deleted when the pod is deleted)
                        type: boolean
                      force:
                        default: false
                        description: Force indicates if force deletion is allowed
                        type: boolean
                      timeoutSeconds:
                        default: 300
                        description: |-
                          TimeoutSecond specifies the length of time in seconds to wait before giving up on pod termination, zero means
                          infinite
                        minimum: 0
                        type: integer
                    type: object
                  waitForCompletion:
                    description: WaitForCompletionSpec describes the configuration
                      for waiting on job completions
                    properties:
                      podSelector:
                        description: |-
                          PodSelector specifies a label selector for the pods to wait for completion
                          For more details on label selectors, see:
                          https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                        type: string
                      timeoutSeconds:
                        default: 0
                        description: |-
                          TimeoutSecond specifies the length of time in seconds to wait before giving up on pod termination, zero means
                          infinite
                        minimum: 0
                        type: integer
                    type: object
                type: object
              useOpenKernelModules:
                description: |-
                  Deprecated: This field is no longer honored by the gpu-operator. Please use KernelModuleType instead.
                  UseOpenKernelModules indicates if the open GPU kernel modules should be used
                type: boolean
              usePrecompiled:
                description: UsePrecompiled indicates if deployment of NVIDIA Driver
                  using pre-compiled modules is enabled
                type: boolean
                x-kubernetes-validations:
                - message: usePrecompiled is an immutable field. Please create a new
                    NvidiaDriver resource instead when you want to change this setting.
                  rule: self == oldSelf
              version:
                description: NVIDIA Driver version (or just branch for precompiled
                  drivers)
                type: string
              virtualTopologyConfig:
                description: 'Optional: Virtual Topology Daemon configuration for
                  NVIDIA vGPU drivers'
                properties:
                  name:
                    description: 'Optional: Config name representing virtual topology
                      daemon configuration file nvidia-topologyd.conf'
                    type: string
                type: object
            required:
            - default
            - driverType
            - image
            type: object
            x-kubernetes-validations:
            - message: default NVIDIADriver must not use nodeSelector
              rule: 'has(self.default) && self.default ? !has(self.nodeSelector) ||
                size(self.nodeSelector) == 0 : true'
          status:
            description: NVIDIADriverStatus defines the observed state of NVIDIADriver
            properties:
              conditions:
                description: Conditions is a list of conditions representing the NVIDIADriver's
                  current state.
                items:
                  description: Condition contains details for one aspect of the current
                    state of this API Resource.
                  properties:
                    lastTransitionTime:
                      description: |-
                        lastTransitionTime is the last time the condition transitioned from one status to another.
                        This should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable.
                      format: date-time
                      type: string
                    message:
                      description: |-
                        message is a human readable message indicating details about the transition.
                        This may be an empty string.
                      maxLength: 32768
                      type: string
                    observedGeneration:
                      description: |-
                        observedGeneration represents the .metadata.generation that the condition was set based upon.
                        For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date
                        with respect to the current state of the instance.
                      format: int64
                      minimum: 0
                      type: integer
                    reason:
                      description: |-
                        reason contains a programmatic identifier indicating the reason for the condition's last transition.
                        Producers of specific condition types may define expected values and meanings for this field,
                        and whether the values are considered a guaranteed API.
                        The value should be a CamelCase string.
                        This field may not be empty.
                      maxLength: 1024
                      minLength: 1
                      pattern: ^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$
                      type: string
                    status:
                      description: status of the condition, one of True, False, Unknown.
                      enum:
                      - "True"
                      - "False"
                      - Unknown
                      type: string
                    type:
                      description: type of condition in CamelCase or in foo.example.com/CamelCase.
                      maxLength: 316
                      pattern: ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$
                      type: string
                  required:
                  - lastTransitionTime
                  - message
                  - reason
                  - status
                  - type
                  type: object
                type: array
              namespace:
                description: Namespace indicates a namespace in which the operator
                  and driver are installed
                type: string
              state:
                description: |-
                  INSERT ADDITIONAL STATUS FIELD - define observed state of cluster
                  Important: Run "make" to regenerate code after modifying this file
                  State indicates status of NVIDIADriver instance
                enum:
                - ignored
                - ready
                - notReady
                - disabled
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
# Source: github.com/NVIDIA/gpu-operator @ tag v26.7.0 (10ee5b3638b89e11e949412aafa5ba99279c3721) : deployments/gpu-operator/crds/resource.nvidia.com_computedomaincliques.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.17.1
  name: computedomaincliques.resource.nvidia.com
spec:
  group: resource.nvidia.com
  names:
    kind: ComputeDomainClique
    listKind: ComputeDomainCliqueList
    plural: computedomaincliques
    singular: computedomainclique
  scope: Namespaced
  versions:
  - name: v1beta1
    schema:
      openAPIV3Schema:
        description: |-
          ComputeDomainClique holds information about a specific clique within a ComputeDomain.
          It is created in the driver namespace and named as "<computeDomainUID>.<cliqueID>".
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          daemons:
            items:
              description: ComputeDomainDaemonInfo provides information about each
                daemon in a ComputeDomainClique.
              properties:
                cliqueID:
                  type: string
                index:
                  description: |-
                    The Index field is used to ensure a consistent IP-to-DNS name
                    mapping across all machines within an IMEX domain. Each node's index
                    directly determines its DNS name within a given NVLink partition
                    (i.e. clique). In other words, the 2-tuple of (CliqueID, Index) will
                    always be unique. This field is marked as optional (but not
                    omitempty) in order to support downgrades and avoid an API bump.
                  type: integer
                ipAddress:
                  type: string
                nodeName:
                  type: string
                status:
                  default: NotReady
                  description: |-
                    The Status field tracks the readiness of the IMEX daemon running on
                    this node. It gets switched to Ready whenever the IMEX daemon is
                    ready to broker GPU memory exchanges and switches to NotReady when
                    it is not. It is marked as optional in order to support downgrades
                    and avoid an API bump.
                  enum:
                  - Ready
                  - NotReady
                  type: string
              required:
              - cliqueID
              - ipAddress
              - nodeName
              type: object
            type: array
            x-kubernetes-list-map-keys:
            - nodeName
            x-kubernetes-list-type: map
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
        type: object
    served: true
    storage: true
# Source: github.com/NVIDIA/gpu-operator @ tag v26.7.0 (10ee5b3638b89e11e949412aafa5ba99279c3721) : deployments/gpu-operator/crds/resource.nvidia.com_computedomains.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.17.1
  name: computedomains.resource.nvidia.com
spec:
  group: resource.nvidia.com
  names:
    kind: ComputeDomain
    listKind: ComputeDomainList
    plural: computedomains
    singular: computedomain
  scope: Namespaced
  versions:
  - name: v1beta1
    schema:
      openAPIV3Schema:
        description: ComputeDomain prepares a set of nodes to run a multi-node workload
          in.
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: ComputeDomainSpec provides the spec for a ComputeDomain.
            properties:
              channel:
                description: ComputeDomainChannelSpec provides the spec for a channel
                  used to run a workload inside a ComputeDomain.
                properties:
                  allocationMode:
                    default: Single
                    description: |-
                      Allows for requesting all IMEX channels (the maximum per IMEX domain) or
                      precisely one.
                    enum:
                    - All
                    - Single
                    type: string
                  resourceClaimTemplate:
                    description: ComputeDomainResourceClaimTemplate provides the details
                      of the ResourceClaimTemplate to generate.
                    properties:
                      name:
                        type: string
                    required:
                    - name
                    type: object
                required:
                - resourceClaimTemplate
                type: object
              numNodes:
                description: |-
                  Intended number of IMEX daemons (i.e., individual compute nodes) in the
                  ComputeDomain. Must be zero or greater.

                  With \`featureGates.IMEXDaemonsWithDNSNames=true\` (the default), this is
                  recommended to be set to zero. Workload must implement and consult its
                  own source of truth for the number of workers online before trying to
                  share GPU memory (and hence triggering IMEX interaction). When non-zero,
                  \`numNodes\` is used only for automatically updating the global
                  ComputeDomain \`Status\` (indicating \`Ready\` when the number of ready IMEX
                  daemons equals \`numNodes\`). In this mode, a \`numNodes\` value greater than
                  zero in particular does not gate the startup of IMEX daemons: individual
                  IMEX daemons are started immediately without waiting for its peers, and
                  any workload pod gets released right after its local IMEX daemon has
                  started.

                  With \`featureGates.IMEXDaemonsWithDNSNames=false\`, \`numNodes\` must be set
                  to the expected number of worker nodes joining the ComputeDomain. In that
                  mode, all workload pods are held back (with containers in state
                  \`ContainerCreating\`) until the underlying IMEX domain has been joined by
                  \`numNodes\` IMEX daemons. Pods from more than \`numNodes\` nodes trying to
                  join the ComputeDomain may lead to unexpected behavior.

                  The \`numNodes\` parameter is deprecated and will be removed in the next
                  API version.
                type: integer
            required:
            - channel
            - numNodes
            type: object
            x-kubernetes-validations:
            - message: A computeDomain.spec is immutable
              rule: self == oldSelf
          status:
            description: |-
              Global ComputeDomain status. Can be used to guide debugging efforts.
              Workload however should not rely on inspecting this field at any point
              during its lifecycle.
            properties:
              nodes:
                items:
                  description: ComputeDomainNode provides information about each node
                    added to a ComputeDomain.
                  properties:
                    cliqueID:
                      type: string
                    index:
                      description: |-
                        The Index field is used to ensure a consistent IP-to-DNS name
                        mapping across all machines within an IMEX domain. Each node's index
                        directly determines its DNS name within a given NVLink partition
                        (i.e. clique). In other words, the 2-tuple of (CliqueID, Index) will
                        always be unique. This field is marked as optional (but not
                        omitempty) in order to support downgrades and avoid an API bump.
                      type: integer
                    ipAddress:
                      type: string
                    name:
                      type: string
                    status:
                      default: NotReady
                      description: |-
                        The Status field tracks the readiness of the IMEX daemon running on
                        this node. It gets switched to Ready whenever the IMEX daemon is
                        ready to broker GPU memory exchanges and switches to NotReady when
                        it is not. It is marked as optional in order to support downgrades
                        and avoid an API bump.
                      enum:
                      - Ready
                      - NotReady
                      type: string
                  required:
                  - cliqueID
                  - ipAddress
                  - name
                  type: object
                type: array
                x-kubernetes-list-map-keys:
                - name
                x-kubernetes-list-type: map
              status:
                default: NotReady
                enum:
                - Ready
                - NotReady
                type: string
            required:
            - status
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
`,"network-operator-v26.1.0.yaml":`# Source: github.com/Mellanox/network-operator @ tag v26.1.0 (34a16f8aaa0a77f3ecef978e57e7d9537ce72853) : deployment/network-operator/crds/k8s.cni.cncf.io_networkattachmentdefinitions_crd.yaml
---
# Copyright 2020 NVIDIA
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: network-attachment-definitions.k8s.cni.cncf.io
spec:
  group: k8s.cni.cncf.io
  scope: Namespaced
  names:
    plural: network-attachment-definitions
    singular: network-attachment-definition
    kind: NetworkAttachmentDefinition
    shortNames:
    - net-attach-def
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          description: 'NetworkAttachmentDefinition is a CRD schema specified by the Network Plumbing
            Working Group to express the intent for attaching pods to one or more logical or physical
            networks. More information available at: https://github.com/k8snetworkplumbingwg/multi-net-spec'
          type: object
          properties:
            apiVersion:
              description: 'APIVersion defines the versioned schema of this represen
                tation of an object. Servers should convert recognized schemas to the
                latest internal value, and may reject unrecognized values. More info:
                https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources'
              type: string
            kind:
              description: 'Kind is a string value representing the REST resource this
                object represents. Servers may infer this from the endpoint the client
                submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'
              type: string
            metadata:
              type: object
            spec:
              description: 'NetworkAttachmentDefinition spec defines the desired state of a network attachment'
              type: object
              properties:
                config:
                  description: 'NetworkAttachmentDefinition config is a JSON-formatted CNI configuration'
                  type: string
# Source: github.com/Mellanox/network-operator @ tag v26.1.0 (34a16f8aaa0a77f3ecef978e57e7d9537ce72853) : deployment/network-operator/crds/mellanox.com_hostdevicenetworks.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.19.0
  name: hostdevicenetworks.mellanox.com
spec:
  group: mellanox.com
  names:
    kind: HostDeviceNetwork
    listKind: HostDeviceNetworkList
    plural: hostdevicenetworks
    singular: hostdevicenetwork
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: HostDeviceNetwork is the Schema for the hostdevicenetworks API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Defines the desired state of HostDeviceNetwork
            properties:
              ipam:
                description: IPAM configuration to be used for this network
                type: string
              networkNamespace:
                description: Namespace of the NetworkAttachmentDefinition custom resource
                type: string
              resourceName:
                description: Host device resource pool name
                type: string
            type: object
          status:
            description: Defines the observed state of HostDeviceNetwork
            properties:
              appliedStates:
                description: AppliedStates provide a finer view of the observed state
                items:
                  description: AppliedState defines a finer-grained view of the observed
                    state of NicClusterPolicy
                  properties:
                    message:
                      description: |-
                        Message is a human readable message indicating details about why
                        the state is in this condition
                      type: string
                    name:
                      description: Name of the deployed component this state refers
                        to
                      type: string
                    state:
                      description: The state of the deployed component. ("ready",
                        "notReady", "ignore", "error")
                      enum:
                      - ready
                      - notReady
                      - ignore
                      - error
                      type: string
                  required:
                  - name
                  - state
                  type: object
                type: array
              hostDeviceNetworkAttachmentDef:
                description: Network attachment definition generated from HostDeviceNetworkSpec
                type: string
              reason:
                description: Informative string in case the observed state is error
                type: string
              state:
                description: Reflects the state of the HostDeviceNetwork
                enum:
                - notReady
                - ready
                - error
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
# Source: github.com/Mellanox/network-operator @ tag v26.1.0 (34a16f8aaa0a77f3ecef978e57e7d9537ce72853) : deployment/network-operator/crds/mellanox.com_ipoibnetworks.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.19.0
  name: ipoibnetworks.mellanox.com
spec:
  group: mellanox.com
  names:
    kind: IPoIBNetwork
    listKind: IPoIBNetworkList
    plural: ipoibnetworks
    singular: ipoibnetwork
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: IPoIBNetwork is the Schema for the ipoibnetworks API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Defines the desired state of IPoIBNetwork
            properties:
              ipam:
                description: IPAM configuration to be used for this network.
                type: string
              master:
                description: Name of the host interface to enslave. Defaults to default
                  route interface
                type: string
              networkNamespace:
                description: Namespace of the NetworkAttachmentDefinition custom resource
                type: string
            type: object
          status:
            description: Defines the observed state of IPoIBNetwork
            properties:
              ipoibNetworkAttachmentDef:
                description: Network attachment definition generated from IPoIBNetworkSpec
                type: string
              reason:
                description: Informative string in case the observed state is error
                type: string
              state:
                description: Reflects the state of the IPoIBNetwork
                enum:
                - notReady
                - ready
                - error
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
# Source: github.com/Mellanox/network-operator @ tag v26.1.0 (34a16f8aaa0a77f3ecef978e57e7d9537ce72853) : deployment/network-operator/crds/mellanox.com_macvlannetworks.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.19.0
  name: macvlannetworks.mellanox.com
spec:
  group: mellanox.com
  names:
    kind: MacvlanNetwork
    listKind: MacvlanNetworkList
    plural: macvlannetworks
    singular: macvlannetwork
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: MacvlanNetwork is the Schema for the macvlannetworks API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Defines the desired state of MacvlanNetworkSpec
            properties:
              ipam:
                description: IPAM configuration to be used for this network.
                type: string
              master:
                description: Name of the host interface to enslave. Defaults to default
                  route interface
                type: string
              mode:
                description: Mode of interface one of "bridge", "private", "vepa",
                  "passthru"
                enum:
                - bridge
                - private
                - vepa
                - passthru
                type: string
              mtu:
                description: MTU of interface to the specified value. 0 for master's
                  MTU
                minimum: 0
                type: integer
              networkNamespace:
                description: Namespace of the NetworkAttachmentDefinition custom resource
                type: string
            type: object
          status:
            description: Defines the observed state of MacvlanNetwork
            properties:
              macvlanNetworkAttachmentDef:
                description: Network attachment definition generated from MacvlanNetworkSpec
                type: string
              reason:
                description: Informative string in case the observed state is error
                type: string
              state:
                description: Reflects the state of the MacvlanNetwork
                enum:
                - notReady
                - ready
                - error
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
# Source: github.com/Mellanox/network-operator @ tag v26.1.0 (34a16f8aaa0a77f3ecef978e57e7d9537ce72853) : deployment/network-operator/crds/mellanox.com_nicclusterpolicies.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.19.0
  name: nicclusterpolicies.mellanox.com
spec:
  group: mellanox.com
  names:
    kind: NicClusterPolicy
    listKind: NicClusterPolicyList
    plural: nicclusterpolicies
    shortNames:
    - ncp
    singular: nicclusterpolicy
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: NicClusterPolicy is the Schema for the nicclusterpolicies API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Defines the desired state of NicClusterPolicy
            properties:
              deploymentNodeAffinity:
                description: NodeAffinity rules to inject to the Deployments objects
                  that are managed by the operator
                properties:
                  preferredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      The scheduler will prefer to schedule pods to nodes that satisfy
                      the affinity expressions specified by this field, but it may choose
                      a node that violates one or more of the expressions. The node that is
                      most preferred is the one with the greatest sum of weights, i.e.
                      for each node that meets all of the scheduling requirements (resource
                      request, requiredDuringScheduling affinity expressions, etc.),
                      compute a sum by iterating through the elements of this field and adding
                      "weight" to the sum if the node matches the corresponding matchExpressions; the
                      node(s) with the highest sum are the most preferred.
                    items:
                      description: |-
                        An empty preferred scheduling term matches all objects with implicit weight 0
                        (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).
                      properties:
                        preference:
                          description: A node selector term, associated with the corresponding
                            weight.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        weight:
                          description: Weight associated with matching the corresponding
                            nodeSelectorTerm, in the range 1-100.
                          format: int32
                          type: integer
                      required:
                      - preference
                      - weight
                      type: object
                    type: array
                    x-kubernetes-list-type: atomic
                  requiredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      If the affinity requirements specified by this field are not met at
                      scheduling time, the pod will not be scheduled onto the node.
                      If the affinity requirements specified by this field cease to be met
                      at some point during pod execution (e.g. due to an update), the system
                      may or may not try to eventually evict the pod from its node.
                    properties:
                      nodeSelectorTerms:
                        description: Required. A list of node selector terms. The
                          terms are ORed.
                        items:
                          description: |-
                            A null or empty node selector term matches no objects. The requirements of
                            them are ANDed.
                            The TopologySelectorTerm type implements a subset of the NodeSelectorTerm.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        type: array
                        x-kubernetes-list-type: atomic
                    required:
                    - nodeSelectorTerms
                    type: object
                    x-kubernetes-map-type: atomic
                type: object
              deploymentTolerations:
                description: Tolerations to inject to the Deployments objects that
                  are managed by the operator
                items:
                  description: |-
                    The pod this Toleration is attached to tolerates any taint that matches
                    the triple <key,value,effect> using the matching operator <operator>.
                  properties:
                    effect:
                      description: |-
                        Effect indicates the taint effect to match. Empty means match all taint effects.
                        When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.
                      type: string
                    key:
                      description: |-
                        Key is the taint key that the toleration applies to. Empty means match all taint keys.
                        If the key is empty, operator must be Exists; this combination means to match all values and all keys.
                      type: string
                    operator:
                      description: |-
                        Operator represents a key's relationship to the value.
                        Valid operators are Exists and Equal. Defaults to Equal.
                        Exists is equivalent to wildcard for value, so that a pod can
                        tolerate all taints of a particular category.
                      type: string
                    tolerationSeconds:
                      description: |-
                        TolerationSeconds represents the period of time the toleration (which must be
                        of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default,
                        it is not set, which means tolerate the taint forever (do not evict). Zero and
                        negative values will be treated as 0 (evict immediately) by the system.
                      format: int64
                      type: integer
                    value:
                      description: |-
                        Value is the taint value the toleration matches to.
                        If the operator is Exists, the value should be empty, otherwise just a regular string.
                      type: string
                  type: object
                type: array
              docaTelemetryService:
                description: |-
                  DOCATelemetryService exposes telemetry from NVIDIA networking components to prometheus.
                  See: https://docs.nvidia.com/doca/sdk/doca+telemetry+service+guide/index.html
                properties:
                  config:
                    description: |-
                      Config contains custom config for the DOCATelemetryService.
                      If set no default config will be deployed.
                    properties:
                      fromConfigMap:
                        description: |-
                          FromConfigMap sets the configMap the DOCATelemetryService gets its configuration from. The ConfigMap must be in
                          the same namespace as the NICClusterPolicy.
                        type: string
                    type: object
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                - repository
                - version
                type: object
              ibKubernetes:
                description: |-
                  IBKubernetes provides a daemon that works in conjunction with the SR-IOV Network Device Plugin.
                  It acts on Kubernetes pod object changes and reads the pod's network annotation.
                  From there it fetches the corresponding network CRD and reads the PKey.
                  This is done in order to add the newly generated GUID or the predefined GUID in the GUID field of the CRD.
                  This is then passed in cni-args to that PKey for pods with mellanox.infiniband.app annotation.
                  See: https://github.com/Mellanox/ib-kubernetes
                properties:
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  pKeyGUIDPoolRangeEnd:
                    description: The last guid in the pool
                    type: string
                  pKeyGUIDPoolRangeStart:
                    description: The first guid in the pool
                    type: string
                  periodicUpdateSeconds:
                    default: 5
                    description: Interval of updates in seconds
                    minimum: 0
                    type: integer
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  ufmSecret:
                    description: Secret containing credentials to UFM service
                    type: string
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                - pKeyGUIDPoolRangeEnd
                - pKeyGUIDPoolRangeStart
                - repository
                - ufmSecret
                - version
                type: object
              nicConfigurationOperator:
                description: |-
                  NicConfigurationOperator provides Kubernetes CRD API to allow FW configuration on NVIDIA NICs in a coordinated manner
                  See: https://github.com/Mellanox/nic-configuration-operator
                properties:
                  configurationDaemon:
                    description: Image information for nic-configuration-daemon
                    properties:
                      containerResources:
                        description: ResourceRequirements describes the compute resource
                          requirements
                        items:
                          description: ResourceRequirements describes the compute
                            resource requirements.
                          properties:
                            limits:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Limits describes the maximum amount of compute resources allowed.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                            name:
                              description: Name of the container the requirements
                                are set for
                              type: string
                            requests:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Requests describes the minimum amount of compute resources required.
                                If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Name of the image
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullSecrets:
                        default: []
                        description: |-
                          ImagePullSecrets is an optional list of references to secrets in the same
                          namespace to use for pulling the image
                        items:
                          type: string
                        type: array
                      repository:
                        description: Address of the registry that stores the image
                        pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                        type: string
                      version:
                        description: Version of the image to use
                        type: string
                    required:
                    - image
                    - repository
                    - version
                    type: object
                  env:
                    description: List of environment variables to set in the NIC Configuration
                      Operator and NIC Configuration Daemon containers.
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: |-
                            Name of the environment variable.
                            May consist of any printable ASCII characters except '='.
                          type: string
                        value:
                          description: |-
                            Variable references $(VAR_NAME) are expanded
                            using the previously defined environment variables in the container and
                            any service environment variables. If a variable cannot be resolved,
                            the reference in the input string will be unchanged. Double $$ are reduced
                            to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e.
                            "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)".
                            Escaped references will never be expanded, regardless of whether the variable
                            exists or not.
                            Defaults to "".
                          type: string
                        valueFrom:
                          description: Source for the environment variable's value.
                            Cannot be used if value is not empty.
                          properties:
                            configMapKeyRef:
                              description: Selects a key of a ConfigMap.
                              properties:
                                key:
                                  description: The key to select.
                                  type: string
                                name:
                                  default: ""
                                  description: |-
                                    Name of the referent.
                                    This field is effectively required, but due to backwards compatibility is
                                    allowed to be empty. Instances of this type with an empty value here are
                                    almost certainly wrong.
                                    More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
                                  type: string
                                optional:
                                  description: Specify whether the ConfigMap or its
                                    key must be defined
                                  type: boolean
                              required:
                              - key
                              type: object
                              x-kubernetes-map-type: atomic
                            fieldRef:
                              description: |-
                                Selects a field of the pod: supports metadata.name, metadata.namespace, \`metadata.labels['<KEY>']\`, \`metadata.annotations['<KEY>']\`,
                                spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.
                              properties:
                                apiVersion:
                                  description: Version of the schema the FieldPath
                                    is written in terms of, defaults to "v1".
                                  type: string
                                fieldPath:
                                  description: Path of the field to select in the
                                    specified API version.
                                  type: string
                              required:
                              - fieldPath
                              type: object
                              x-kubernetes-map-type: atomic
                            fileKeyRef:
                              description: |-
                                FileKeyRef selects a key of the env file.
                                Requires the EnvFiles feature gate to be enabled.
                              properties:
                                key:
                                  description: |-
                                    The key within the env file. An invalid key will prevent the pod from starting.
                                    The keys defined within a source may consist of any printable ASCII characters except '='.
                                    During Alpha stage of the EnvFiles feature gate, the key size is limited to 128 characters.
                                  type: string
                                optional:
                                  default: false
                                  description: |-
                                    Specify whether the file or its key must be defined. If the file or key
                                    does not exist, then the env var is not published.
                                    If optional is set to true and the specified key does not exist,
                                    the environment variable will not be set in the Pod's containers.

                                    If optional is set to false and the specified key does not exist,
                                    an error will be returned during Pod creation.
                                  type: boolean
                                path:
                                  description: |-
                                    The path within the volume from which to select the file.
                                    Must be relative and may not contain the '..' path or start with '..'.
                                  type: string
                                volumeName:
                                  description: The name of the volume mount containing
                                    the env file.
                                  type: string
                              required:
                              - key
                              - path
                              - volumeName
                              type: object
                              x-kubernetes-map-type: atomic
                            resourceFieldRef:
                              description: |-
                                Selects a resource of the container: only resources limits and requests
                                (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.
                              properties:
                                containerName:
                                  description: 'Container name: required for volumes,
                                    optional for env vars'
                                  type: string
                                divisor:
                                  anyOf:
                                  - type: integer
                                  - type: string
                                  description: Specifies the output format of the
                                    exposed resources, defaults to "1"
                                  pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                  x-kubernetes-int-or-string: true
                                resource:
                                  description: 'Required: resource to select'
                                  type: string
                              required:
                              - resource
                              type: object
                              x-kubernetes-map-type: atomic
                            secretKeyRef:
                              description: Selects a key of a secret in the pod's
                                namespace
                              properties:
                                key:
                                  description: The key of the secret to select from.  Must
                                    be a valid secret key.
                                  type: string
                                name:
                                  default: ""
                                  description: |-
                                    Name of the referent.
                                    This field is effectively required, but due to backwards compatibility is
                                    allowed to be empty. Instances of this type with an empty value here are
                                    almost certainly wrong.
                                    More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
                                  type: string
                                optional:
                                  description: Specify whether the Secret or its key
                                    must be defined
                                  type: boolean
                              required:
                              - key
                              type: object
                              x-kubernetes-map-type: atomic
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  logLevel:
                    default: info
                    description: LogLevel sets the verbosity level of the logs. info|debug
                    enum:
                    - info
                    - debug
                    type: string
                  nicFirmwareStorage:
                    description: NicFirmwareStorage contains configuration for the
                      NIC firmware storage. If not provided, the NIC firmware storage
                      will not be configured.
                    properties:
                      availableStorageSize:
                        default: 1Gi
                        description: 'AvailableStorageSize is storage size for the
                          NIC Configuration Operator to request. Only applies if nicFirmwareStorage.create
                          == true. Default value: 1Gi'
                        pattern: ^(\\d+)(Ei|Pi|Ti|Gi|Mi|Ki)$
                        type: string
                        x-kubernetes-validations:
                        - message: availableStorageSize is immutable once set. nicFirmwareStorage
                            should be deleted and created again with a new value.
                          rule: self == oldSelf
                      create:
                        default: true
                        description: |-
                          Create specifies whether to create a new PVC or use an existing one
                          If create == false, the existing PVC with the name specified in pvcName should be located in the same namespace as the operator
                        type: boolean
                      pvcName:
                        default: nic-fw-storage-pvc
                        description: 'PVCName is the name of the PVC to mount as NIC
                          Firmware storage. Default value: "nic-fw-storage-pvc"'
                        maxLength: 63
                        minLength: 1
                        pattern: ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
                        type: string
                      storageClassName:
                        description: |-
                          StorageClassName is the name of a storage class to be used to store NIC FW binaries during NIC FW upgrade.
                          If not provided, the cluster-default storage class will be used
                        maxLength: 63
                        minLength: 1
                        pattern: ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
                        type: string
                        x-kubernetes-validations:
                        - message: storageClassName is immutable once set. nicFirmwareStorage
                            should be deleted and created again with a new value.
                          rule: self == oldSelf
                    type: object
                  operator:
                    description: Image information for nic-configuration-operator
                    properties:
                      containerResources:
                        description: ResourceRequirements describes the compute resource
                          requirements
                        items:
                          description: ResourceRequirements describes the compute
                            resource requirements.
                          properties:
                            limits:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Limits describes the maximum amount of compute resources allowed.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                            name:
                              description: Name of the container the requirements
                                are set for
                              type: string
                            requests:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Requests describes the minimum amount of compute resources required.
                                If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Name of the image
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullSecrets:
                        default: []
                        description: |-
                          ImagePullSecrets is an optional list of references to secrets in the same
                          namespace to use for pulling the image
                        items:
                          type: string
                        type: array
                      repository:
                        description: Address of the registry that stores the image
                        pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                        type: string
                      version:
                        description: Version of the image to use
                        type: string
                    required:
                    - image
                    - repository
                    - version
                    type: object
                required:
                - configurationDaemon
                - operator
                type: object
              nicFeatureDiscovery:
                description: |-
                  NicFeatureDiscovery works with NodeFeatureDiscovery to expose information about NVIDIA NICs.
                  https://github.com/Mellanox/nic-feature-discovery
                properties:
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                - repository
                - version
                type: object
              nodeAffinity:
                description: NodeAffinity rules to inject to the DaemonSets objects
                  that are managed by the operator
                properties:
                  preferredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      The scheduler will prefer to schedule pods to nodes that satisfy
                      the affinity expressions specified by this field, but it may choose
                      a node that violates one or more of the expressions. The node that is
                      most preferred is the one with the greatest sum of weights, i.e.
                      for each node that meets all of the scheduling requirements (resource
                      request, requiredDuringScheduling affinity expressions, etc.),
                      compute a sum by iterating through the elements of this field and adding
                      "weight" to the sum if the node matches the corresponding matchExpressions; the
                      node(s) with the highest sum are the most preferred.
                    items:
                      description: |-
                        An empty preferred scheduling term matches all objects with implicit weight 0
                        (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).
                      properties:
                        preference:
                          description: A node selector term, associated with the corresponding
                            weight.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        weight:
                          description: Weight associated with matching the corresponding
                            nodeSelectorTerm, in the range 1-100.
                          format: int32
                          type: integer
                      required:
                      - preference
                      - weight
                      type: object
                    type: array
                    x-kubernetes-list-type: atomic
                  requiredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      If the affinity requirements specified by this field are not met at
                      scheduling time, the pod will not be scheduled onto the node.
                      If the affinity requirements specified by this field cease to be met
                      at some point during pod execution (e.g. due to an update), the system
                      may or may not try to eventually evict the pod from its node.
                    properties:
                      nodeSelectorTerms:
                        description: Required. A list of node selector terms. The
                          terms are ORed.
                        items:
                          description: |-
                            A null or empty node selector term matches no objects. The requirements of
                            them are ANDed.
                            The TopologySelectorTerm type implements a subset of the NodeSelectorTerm.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        type: array
                        x-kubernetes-list-type: atomic
                    required:
                    - nodeSelectorTerms
                    type: object
                    x-kubernetes-map-type: atomic
                type: object
              nvIpam:
                description: |-
                  NvIpam is an IPAM provider that dynamically assigns IP addresses with speed and performance in mind.
                  Note: NvIPam requires certificate management e.g. cert-manager or OpenShift cert management.
                  See https://github.com/Mellanox/nvidia-k8s-ipam
                properties:
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  enableWebhook:
                    description: Enable deployment of the validation webhook
                    type: boolean
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                - repository
                - version
                type: object
              ofedDriver:
                description: |-
                  OFEDDriver is a specialized driver for NVIDIA NICs which can replace the inbox driver that comes with an OS.
                  See https://network.nvidia.com/support/mlnx-ofed-matrix/
                properties:
                  certConfig:
                    description: 'Optional: Custom TLS certificates configuration
                      for DOCA-OFED driver container'
                    properties:
                      name:
                        description: Name of the ConfigMap
                        type: string
                    type: object
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  env:
                    description: List of environment variables to set in the DOCA-OFED
                      driver container.
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: |-
                            Name of the environment variable.
                            May consist of any printable ASCII characters except '='.
                          type: string
                        value:
                          description: |-
                            Variable references $(VAR_NAME) are expanded
                            using the previously defined environment variables in the container and
                            any service environment variables. If a variable cannot be resolved,
                            the reference in the input string will be unchanged. Double $$ are reduced
                            to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e.
                            "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)".
                            Escaped references will never be expanded, regardless of whether the variable
                            exists or not.
                            Defaults to "".
                          type: string
                        valueFrom:
                          description: Source for the environment variable's value.
                            Cannot be used if value is not empty.
                          properties:
                            configMapKeyRef:
                              description: Selects a key of a ConfigMap.
                              properties:
                                key:
                                  description: The key to select.
                                  type: string
                                name:
                                  default: ""
                                  description: |-
                                    Name of the referent.
                                    This field is effectively required, but due to backwards compatibility is
                                    allowed to be empty. Instances of this type with an empty value here are
                                    almost certainly wrong.
                                    More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
                                  type: string
                                optional:
                                  description: Specify whether the ConfigMap or its
                                    key must be defined
                                  type: boolean
                              required:
                              - key
                              type: object
                              x-kubernetes-map-type: atomic
                            fieldRef:
                              description: |-
                                Selects a field of the pod: supports metadata.name, metadata.namespace, \`metadata.labels['<KEY>']\`, \`metadata.annotations['<KEY>']\`,
                                spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.
                              properties:
                                apiVersion:
                                  description: Version of the schema the FieldPath
                                    is written in terms of, defaults to "v1".
                                  type: string
                                fieldPath:
                                  description: Path of the field to select in the
                                    specified API version.
                                  type: string
                              required:
                              - fieldPath
                              type: object
                              x-kubernetes-map-type: atomic
                            fileKeyRef:
                              description: |-
                                FileKeyRef selects a key of the env file.
                                Requires the EnvFiles feature gate to be enabled.
                              properties:
                                key:
                                  description: |-
                                    The key within the env file. An invalid key will prevent the pod from starting.
                                    The keys defined within a source may consist of any printable ASCII characters except '='.
                                    During Alpha stage of the EnvFiles feature gate, the key size is limited to 128 characters.
                                  type: string
                                optional:
                                  default: false
                                  description: |-
                                    Specify whether the file or its key must be defined. If the file or key
                                    does not exist, then the env var is not published.
                                    If optional is set to true and the specified key does not exist,
                                    the environment variable will not be set in the Pod's containers.

                                    If optional is set to false and the specified key does not exist,
                                    an error will be returned during Pod creation.
                                  type: boolean
                                path:
                                  description: |-
                                    The path within the volume from which to select the file.
                                    Must be relative and may not contain the '..' path or start with '..'.
                                  type: string
                                volumeName:
                                  description: The name of the volume mount containing
                                    the env file.
                                  type: string
                              required:
                              - key
                              - path
                              - volumeName
                              type: object
                              x-kubernetes-map-type: atomic
                            resourceFieldRef:
                              description: |-
                                Selects a resource of the container: only resources limits and requests
                                (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.
                              properties:
                                containerName:
                                  description: 'Container name: required for volumes,
                                    optional for env vars'
                                  type: string
                                divisor:
                                  anyOf:
                                  - type: integer
                                  - type: string
                                  description: Specifies the output format of the
                                    exposed resources, defaults to "1"
                                  pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                  x-kubernetes-int-or-string: true
                                resource:
                                  description: 'Required: resource to select'
                                  type: string
                              required:
                              - resource
                              type: object
                              x-kubernetes-map-type: atomic
                            secretKeyRef:
                              description: Selects a key of a secret in the pod's
                                namespace
                              properties:
                                key:
                                  description: The key of the secret to select from.  Must
                                    be a valid secret key.
                                  type: string
                                name:
                                  default: ""
                                  description: |-
                                    Name of the referent.
                                    This field is effectively required, but due to backwards compatibility is
                                    allowed to be empty. Instances of this type with an empty value here are
                                    almost certainly wrong.
                                    More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
                                  type: string
                                optional:
                                  description: Specify whether the Secret or its key
                                    must be defined
                                  type: boolean
                              required:
                              - key
                              type: object
                              x-kubernetes-map-type: atomic
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  forcePrecompiled:
                    default: false
                    description: |-
                      ForcePrecompiled specifies if only DOCA-OFED driver precompiled images are allowed
                      If set to false and precompiled image does not exists, DOCA-OFED driver will be compiled on Nodes
                      If set to true and precompiled image does not exists, OFED state will be Error.
                    type: boolean
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  livenessProbe:
                    description: Pod liveness probe settings
                    properties:
                      failureThreshold:
                        description: Minimum consecutive failures for the probe to
                          be considered failed after having succeeded
                        type: integer
                      initialDelaySeconds:
                        description: Number of seconds after the container has started
                          before the probe is initiated
                        type: integer
                      periodSeconds:
                        description: How often (in seconds) to perform the probe
                        type: integer
                      timeoutSeconds:
                        description: Number of seconds after which the probe times
                          out
                        type: integer
                    required:
                    - initialDelaySeconds
                    - periodSeconds
                    type: object
                  readinessProbe:
                    description: Pod readiness probe settings
                    properties:
                      failureThreshold:
                        description: Minimum consecutive failures for the probe to
                          be considered failed after having succeeded
                        type: integer
                      initialDelaySeconds:
                        description: Number of seconds after the container has started
                          before the probe is initiated
                        type: integer
                      periodSeconds:
                        description: How often (in seconds) to perform the probe
                        type: integer
                      timeoutSeconds:
                        description: Number of seconds after which the probe times
                          out
                        type: integer
                    required:
                    - initialDelaySeconds
                    - periodSeconds
                    type: object
                  repoConfig:
                    description: 'Optional: Custom package repository configuration
                      for DOCA-OFED driver container'
                    properties:
                      name:
                        description: Name of the ConfigMap
                        type: string
                    type: object
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  startupProbe:
                    description: Pod startup probe settings
                    properties:
                      failureThreshold:
                        description: Minimum consecutive failures for the probe to
                          be considered failed after having succeeded
                        type: integer
                      initialDelaySeconds:
                        description: Number of seconds after the container has started
                          before the probe is initiated
                        type: integer
                      periodSeconds:
                        description: How often (in seconds) to perform the probe
                        type: integer
                      timeoutSeconds:
                        description: Number of seconds after which the probe times
                          out
                        type: integer
                    required:
                    - initialDelaySeconds
                    - periodSeconds
                    type: object
                  terminationGracePeriodSeconds:
                    default: 300
                    description: |-
                      TerminationGracePeriodSeconds specifies the length of time in seconds
                      to wait before killing the DOCA-OFED driver container pod on termination
                    format: int64
                    minimum: 0
                    type: integer
                  upgradePolicy:
                    description: DOCA-OFED driver auto-upgrade settings
                    properties:
                      autoUpgrade:
                        default: false
                        description: |-
                          AutoUpgrade is a global switch for automatic upgrade feature
                          if set to false all other options are ignored
                        type: boolean
                      drain:
                        description: The configuration for node drain during automatic
                          upgrade
                        properties:
                          deleteEmptyDir:
                            default: false
                            description: |-
                              DeleteEmptyDir indicates if should continue even if there are pods using emptyDir
                              (local data that will be deleted when the node is drained)
                            type: boolean
                          enable:
                            default: true
                            description: Enable indicates if node draining is allowed
                              during upgrade
                            type: boolean
                          force:
                            default: false
                            description: Force indicates if force draining is allowed
                            type: boolean
                          podSelector:
                            description: |-
                              PodSelector specifies a label selector to filter pods on the node that need to be drained
                              For more details on label selectors, see:
                              https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                            type: string
                          timeoutSeconds:
                            default: 300
                            description: TimeoutSecond specifies the length of time
                              in seconds to wait before giving up drain, zero means
                              infinite
                            minimum: 0
                            type: integer
                        type: object
                      maxParallelUpgrades:
                        default: 1
                        description: |-
                          MaxParallelUpgrades indicates how many nodes can be upgraded in parallel
                          0 means no limit, all nodes will be upgraded in parallel
                        minimum: 0
                        type: integer
                      safeLoad:
                        default: false
                        description: SafeLoad turn on safe driver loading (cordon
                          and drain the node before loading the driver)
                        type: boolean
                      waitForCompletion:
                        description: The configuration for waiting on pods completions
                        properties:
                          podSelector:
                            description: |-
                              PodSelector specifies a label selector for the pods to wait for completion
                              For more details on label selectors, see:
                              https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                            type: string
                          timeoutSeconds:
                            default: 0
                            description: |-
                              TimeoutSecond specifies the length of time in seconds
                              to wait before giving up on pod termination, zero means infinite
                            minimum: 0
                            type: integer
                        type: object
                    type: object
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                - repository
                - version
                type: object
              rdmaSharedDevicePlugin:
                description: |-
                  RdmaSharedDevicePlugin manages support IB and RoCE HCAs through the Kubernetes device plugin framework.
                  The config field is a json representation of the RDMA shared device plugin configuration.
                  See https://github.com/Mellanox/k8s-rdma-shared-dev-plugin
                properties:
                  config:
                    description: Configuration for the component as a string
                    type: string
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  useCdi:
                    description: |-
                      Enables use of container device interface (CDI)
                      NOTE: NVIDIA Network Operator does not configure container runtime to enable CDI.
                    type: boolean
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                - repository
                - version
                type: object
              secondaryNetwork:
                description: |-
                  SecondaryNetwork Specifies components to deploy in order to facilitate a secondary network in Kubernetes.
                  It consists of the following optionally deployed components:
                  - Multus-CNI: Delegate CNI plugin to support secondary networks in Kubernetes
                  - CNI plugins: Currently only containernetworking-plugins is supported
                  - IPoIB CNI: Allows the user to create IPoIB child link and move it to the pod
                properties:
                  cniPlugins:
                    description: Image information for CNI plugins
                    properties:
                      containerResources:
                        description: ResourceRequirements describes the compute resource
                          requirements
                        items:
                          description: ResourceRequirements describes the compute
                            resource requirements.
                          properties:
                            limits:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Limits describes the maximum amount of compute resources allowed.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                            name:
                              description: Name of the container the requirements
                                are set for
                              type: string
                            requests:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Requests describes the minimum amount of compute resources required.
                                If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Name of the image
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullSecrets:
                        default: []
                        description: |-
                          ImagePullSecrets is an optional list of references to secrets in the same
                          namespace to use for pulling the image
                        items:
                          type: string
                        type: array
                      repository:
                        description: Address of the registry that stores the image
                        pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                        type: string
                      version:
                        description: Version of the image to use
                        type: string
                    required:
                    - image
                    - repository
                    - version
                    type: object
                  ipoib:
                    description: Image information for IPoIB CNI
                    properties:
                      containerResources:
                        description: ResourceRequirements describes the compute resource
                          requirements
                        items:
                          description: ResourceRequirements describes the compute
                            resource requirements.
                          properties:
                            limits:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Limits describes the maximum amount of compute resources allowed.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                            name:
                              description: Name of the container the requirements
                                are set for
                              type: string
                            requests:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Requests describes the minimum amount of compute resources required.
                                If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Name of the image
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullSecrets:
                        default: []
                        description: |-
                          ImagePullSecrets is an optional list of references to secrets in the same
                          namespace to use for pulling the image
                        items:
                          type: string
                        type: array
                      repository:
                        description: Address of the registry that stores the image
                        pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                        type: string
                      version:
                        description: Version of the image to use
                        type: string
                    required:
                    - image
                    - repository
                    - version
                    type: object
                  multus:
                    description: Image and configuration information for multus
                    properties:
                      config:
                        description: Configuration for the component as a string
                        type: string
                      containerResources:
                        description: ResourceRequirements describes the compute resource
                          requirements
                        items:
                          description: ResourceRequirements describes the compute
                            resource requirements.
                          properties:
                            limits:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Limits describes the maximum amount of compute resources allowed.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                            name:
                              description: Name of the container the requirements
                                are set for
                              type: string
                            requests:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Requests describes the minimum amount of compute resources required.
                                If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Name of the image
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullSecrets:
                        default: []
                        description: |-
                          ImagePullSecrets is an optional list of references to secrets in the same
                          namespace to use for pulling the image
                        items:
                          type: string
                        type: array
                      repository:
                        description: Address of the registry that stores the image
                        pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                        type: string
                      version:
                        description: Version of the image to use
                        type: string
                    required:
                    - image
                    - repository
                    - version
                    type: object
                type: object
              spectrumXOperator:
                description: |-
                  SpectrumXOperator exposes NVIDIA Spectrum-X Operator.
                  See: https://github.com/Mellanox/spectrum-x-operator/
                properties:
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                - repository
                - version
                type: object
              sriovDevicePlugin:
                description: |-
                  SriovDevicePlugin manages SRIOV through the Kubernetes device plugin framework.
                  The config field is a json representation of the RDMA shared device plugin configuration.
                  See https://github.com/k8snetworkplumbingwg/sriov-network-device-plugin
                properties:
                  config:
                    description: Configuration for the component as a string
                    type: string
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  useCdi:
                    description: |-
                      Enables use of container device interface (CDI)
                      NOTE: NVIDIA Network Operator does not configure container runtime to enable CDI.
                    type: boolean
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                - repository
                - version
                type: object
              tolerations:
                description: Tolerations to inject to the DaemonSets objects that
                  are managed by the operator
                items:
                  description: |-
                    The pod this Toleration is attached to tolerates any taint that matches
                    the triple <key,value,effect> using the matching operator <operator>.
                  properties:
                    effect:
                      description: |-
                        Effect indicates the taint effect to match. Empty means match all taint effects.
                        When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.
                      type: string
                    key:
                      description: |-
                        Key is the taint key that the toleration applies to. Empty means match all taint keys.
                        If the key is empty, operator must be Exists; this combination means to match all values and all keys.
                      type: string
                    operator:
                      description: |-
                        Operator represents a key's relationship to the value.
                        Valid operators are Exists and Equal. Defaults to Equal.
                        Exists is equivalent to wildcard for value, so that a pod can
                        tolerate all taints of a particular category.
                      type: string
                    tolerationSeconds:
                      description: |-
                        TolerationSeconds represents the period of time the toleration (which must be
                        of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default,
                        it is not set, which means tolerate the taint forever (do not evict). Zero and
                        negative values will be treated as 0 (evict immediately) by the system.
                      format: int64
                      type: integer
                    value:
                      description: |-
                        Value is the taint value the toleration matches to.
                        If the operator is Exists, the value should be empty, otherwise just a regular string.
                      type: string
                  type: object
                type: array
            type: object
          status:
            description: Defines the observed state of NicClusterPolicy
            properties:
              appliedStates:
                description: AppliedStates provide a finer view of the observed state
                items:
                  description: AppliedState defines a finer-grained view of the observed
                    state of NicClusterPolicy
                  properties:
                    message:
                      description: |-
                        Message is a human readable message indicating details about why
                        the state is in this condition
                      type: string
                    name:
                      description: Name of the deployed component this state refers
                        to
                      type: string
                    state:
                      description: The state of the deployed component. ("ready",
                        "notReady", "ignore", "error")
                      enum:
                      - ready
                      - notReady
                      - ignore
                      - error
                      type: string
                  required:
                  - name
                  - state
                  type: object
                type: array
              reason:
                description: Informative string in case the observed state is error
                type: string
              state:
                description: Reflects the current state of the cluster policy
                enum:
                - ignore
                - notReady
                - ready
                - error
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
`,"network-operator-v26.4.0-node-feature-discovery.yaml":`# Source: github.com/Mellanox/network-operator @ tag v26.4.0 (12e6d54ae20300151ef386da832809d83a8ab63d) : deployment/network-operator/charts/node-feature-discovery/crds/nfd-api-crds.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.3
  name: nodefeatures.nfd.k8s-sigs.io
spec:
  group: nfd.k8s-sigs.io
  names:
    kind: NodeFeature
    listKind: NodeFeatureList
    plural: nodefeatures
    singular: nodefeature
  scope: Namespaced
  versions:
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        description: |-
          NodeFeature resource holds the features discovered for one node in the
          cluster.
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Specification of the NodeFeature, containing features discovered
              for a node.
            properties:
              features:
                description: Features is the full "raw" features data that has been
                  discovered.
                properties:
                  attributes:
                    additionalProperties:
                      description: AttributeFeatureSet is a set of features having
                        string value.
                      properties:
                        elements:
                          additionalProperties:
                            type: string
                          description: Individual features of the feature set.
                          type: object
                      required:
                      - elements
                      type: object
                    description: Attributes contains all the attribute-type features
                      of the node.
                    type: object
                  flags:
                    additionalProperties:
                      description: FlagFeatureSet is a set of simple features only
                        containing names without values.
                      properties:
                        elements:
                          additionalProperties:
                            description: |-
                              Nil is a dummy empty struct for protobuf compatibility.
                              NOTE: protobuf definitions have been removed but this is kept for API compatibility.
                            type: object
                          description: Individual features of the feature set.
                          type: object
                      required:
                      - elements
                      type: object
                    description: Flags contains all the flag-type features of the
                      node.
                    type: object
                  instances:
                    additionalProperties:
                      description: InstanceFeatureSet is a set of features each of
                        which is an instance having multiple attributes.
                      properties:
                        elements:
                          description: Individual features of the feature set.
                          items:
                            description: InstanceFeature represents one instance of
                              a complex features, e.g. a device.
                            properties:
                              attributes:
                                additionalProperties:
                                  type: string
                                description: Attributes of the instance feature.
                                type: object
                            required:
                            - attributes
                            type: object
                          type: array
                      required:
                      - elements
                      type: object
                    description: Instances contains all the instance-type features
                      of the node.
                    type: object
                type: object
              labels:
                additionalProperties:
                  type: string
                description: Labels is the set of node labels that are requested to
                  be created.
                type: object
            type: object
        required:
        - spec
        type: object
    served: true
    storage: true
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.3
  name: nodefeaturegroups.nfd.k8s-sigs.io
spec:
  group: nfd.k8s-sigs.io
  names:
    kind: NodeFeatureGroup
    listKind: NodeFeatureGroupList
    plural: nodefeaturegroups
    shortNames:
    - nfg
    singular: nodefeaturegroup
  scope: Namespaced
  versions:
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        description: NodeFeatureGroup resource holds Node pools by featureGroup
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Spec defines the rules to be evaluated.
            properties:
              featureGroupRules:
                description: List of rules to evaluate to determine nodes that belong
                  in this group.
                items:
                  description: GroupRule defines a rule for nodegroup filtering.
                  properties:
                    matchAny:
                      description: MatchAny specifies a list of matchers one of which
                        must match.
                      items:
                        description: MatchAnyElem specifies one sub-matcher of MatchAny.
                        properties:
                          matchFeatures:
                            description: MatchFeatures specifies a set of matcher
                              terms all of which must match.
                            items:
                              description: |-
                                FeatureMatcherTerm defines requirements against one feature set. All
                                requirements (specified as MatchExpressions) are evaluated against each
                                element in the feature set.
                              properties:
                                feature:
                                  description: Feature is the name of the feature
                                    set to match against.
                                  type: string
                                matchExpressions:
                                  additionalProperties:
                                    description: |-
                                      MatchExpression specifies an expression to evaluate against a set of input
                                      values. It contains an operator that is applied when matching the input and
                                      an array of values that the operator evaluates the input against.
                                    properties:
                                      op:
                                        description: Op is the operator to be applied.
                                        enum:
                                        - In
                                        - NotIn
                                        - InRegexp
                                        - Exists
                                        - DoesNotExist
                                        - Gt
                                        - Ge
                                        - Lt
                                        - Le
                                        - GtLt
                                        - GeLe
                                        - IsTrue
                                        - IsFalse
                                        type: string
                                      type:
                                        description: |-
                                          Type defines the value type for specific operators.
                                          The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                        type: string
                                      value:
                                        description: |-
                                          Value is the list of values that the operand evaluates the input
                                          against. Value should be empty if the operator is Exists, DoesNotExist,
                                          IsTrue or IsFalse. Value should contain exactly one element if the
                                          operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                          In other cases Value should contain at least one element.
                                        items:
                                          type: string
                                        type: array
                                    required:
                                    - op
                                    type: object
                                  description: |-
                                    MatchExpressions is the set of per-element expressions evaluated. These
                                    match against the value of the specified elements.
                                  type: object
                                matchName:
                                  description: |-
                                    MatchName in an expression that is matched against the name of each
                                    element in the feature set.
                                  properties:
                                    op:
                                      description: Op is the operator to be applied.
                                      enum:
                                      - In
                                      - NotIn
                                      - InRegexp
                                      - Exists
                                      - DoesNotExist
                                      - Gt
                                      - Ge
                                      - Lt
                                      - Le
                                      - GtLt
                                      - GeLe
                                      - IsTrue
                                      - IsFalse
                                      type: string
                                    type:
                                      description: |-
                                        Type defines the value type for specific operators.
                                        The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                      type: string
                                    value:
                                      description: |-
                                        Value is the list of values that the operand evaluates the input
                                        against. Value should be empty if the operator is Exists, DoesNotExist,
                                        IsTrue or IsFalse. Value should contain exactly one element if the
                                        operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                        In other cases Value should contain at least one element.
                                      items:
                                        type: string
                                      type: array
                                  required:
                                  - op
                                  type: object
                              required:
                              - feature
                              type: object
                            type: array
                        required:
                        - matchFeatures
                        type: object
                      type: array
                    matchFeatures:
                      description: MatchFeatures specifies a set of matcher terms
                        all of which must match.
                      items:
                        description: |-
                          FeatureMatcherTerm defines requirements against one feature set. All
                          requirements (specified as MatchExpressions) are evaluated against each
                          element in the feature set.
                        properties:
                          feature:
                            description: Feature is the name of the feature set to
                              match against.
                            type: string
                          matchExpressions:
                            additionalProperties:
                              description: |-
                                MatchExpression specifies an expression to evaluate against a set of input
                                values. It contains an operator that is applied when matching the input and
                                an array of values that the operator evaluates the input against.
                              properties:
                                op:
                                  description: Op is the operator to be applied.
                                  enum:
                                  - In
                                  - NotIn
                                  - InRegexp
                                  - Exists
                                  - DoesNotExist
                                  - Gt
                                  - Ge
                                  - Lt
                                  - Le
                                  - GtLt
                                  - GeLe
                                  - IsTrue
                                  - IsFalse
                                  type: string
                                type:
                                  description: |-
                                    Type defines the value type for specific operators.
                                    The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                  type: string
                                value:
                                  description: |-
                                    Value is the list of values that the operand evaluates the input
                                    against. Value should be empty if the operator is Exists, DoesNotExist,
                                    IsTrue or IsFalse. Value should contain exactly one element if the
                                    operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                    In other cases Value should contain at least one element.
                                  items:
                                    type: string
                                  type: array
                              required:
                              - op
                              type: object
                            description: |-
                              MatchExpressions is the set of per-element expressions evaluated. These
                              match against the value of the specified elements.
                            type: object
                          matchName:
                            description: |-
                              MatchName in an expression that is matched against the name of each
                              element in the feature set.
                            properties:
                              op:
                                description: Op is the operator to be applied.
                                enum:
                                - In
                                - NotIn
                                - InRegexp
                                - Exists
                                - DoesNotExist
                                - Gt
                                - Ge
                                - Lt
                                - Le
                                - GtLt
                                - GeLe
                                - IsTrue
                                - IsFalse
                                type: string
                              type:
                                description: |-
                                  Type defines the value type for specific operators.
                                  The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                type: string
                              value:
                                description: |-
                                  Value is the list of values that the operand evaluates the input
                                  against. Value should be empty if the operator is Exists, DoesNotExist,
                                  IsTrue or IsFalse. Value should contain exactly one element if the
                                  operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                  In other cases Value should contain at least one element.
                                items:
                                  type: string
                                type: array
                            required:
                            - op
                            type: object
                        required:
                        - feature
                        type: object
                      type: array
                    name:
                      description: Name of the rule.
                      type: string
                    vars:
                      additionalProperties:
                        type: string
                      description: |-
                        Vars is the variables to store if the rule matches. Variables can be
                        referenced from other rules enabling more complex rule hierarchies.
                      type: object
                    varsTemplate:
                      description: |-
                        VarsTemplate specifies a template to expand for dynamically generating
                        multiple variables. Data (after template expansion) must be keys with an
                        optional value (<key>[=<value>]) separated by newlines.
                      type: string
                  required:
                  - name
                  type: object
                type: array
            required:
            - featureGroupRules
            type: object
          status:
            description: |-
              Status of the NodeFeatureGroup after the most recent evaluation of the
              specification.
            properties:
              nodes:
                description: Nodes is a list of FeatureGroupNode in the cluster that
                  match the featureGroupRules
                items:
                  properties:
                    name:
                      description: Name of the node.
                      type: string
                  required:
                  - name
                  type: object
                type: array
                x-kubernetes-list-map-keys:
                - name
                x-kubernetes-list-type: map
            type: object
        required:
        - spec
        type: object
    served: true
    storage: true
    subresources:
      status: {}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.3
  name: nodefeaturerules.nfd.k8s-sigs.io
spec:
  group: nfd.k8s-sigs.io
  names:
    kind: NodeFeatureRule
    listKind: NodeFeatureRuleList
    plural: nodefeaturerules
    shortNames:
    - nfr
    singular: nodefeaturerule
  scope: Cluster
  versions:
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        description: |-
          NodeFeatureRule resource specifies a configuration for feature-based
          customization of node objects, such as node labeling.
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Spec defines the rules to be evaluated.
            properties:
              rules:
                description: Rules is a list of node customization rules.
                items:
                  description: Rule defines a rule for node customization such as
                    labeling.
                  properties:
                    annotations:
                      additionalProperties:
                        type: string
                      description: Annotations to create if the rule matches.
                      type: object
                    extendedResources:
                      additionalProperties:
                        type: string
                      description: ExtendedResources to create if the rule matches.
                      type: object
                    labels:
                      additionalProperties:
                        type: string
                      description: Labels to create if the rule matches.
                      type: object
                    labelsTemplate:
                      description: |-
                        LabelsTemplate specifies a template to expand for dynamically generating
                        multiple labels. Data (after template expansion) must be keys with an
                        optional value (<key>[=<value>]) separated by newlines.
                      type: string
                    matchAny:
                      description: MatchAny specifies a list of matchers one of which
                        must match.
                      items:
                        description: MatchAnyElem specifies one sub-matcher of MatchAny.
                        properties:
                          matchFeatures:
                            description: MatchFeatures specifies a set of matcher
                              terms all of which must match.
                            items:
                              description: |-
                                FeatureMatcherTerm defines requirements against one feature set. All
                                requirements (specified as MatchExpressions) are evaluated against each
                                element in the feature set.
                              properties:
                                feature:
                                  description: Feature is the name of the feature
                                    set to match against.
                                  type: string
                                matchExpressions:
                                  additionalProperties:
                                    description: |-
                                      MatchExpression specifies an expression to evaluate against a set of input
                                      values. It contains an operator that is applied when matching the input and
                                      an array of values that the operator evaluates the input against.
                                    properties:
                                      op:
                                        description: Op is the operator to be applied.
                                        enum:
                                        - In
                                        - NotIn
                                        - InRegexp
                                        - Exists
                                        - DoesNotExist
                                        - Gt
                                        - Ge
                                        - Lt
                                        - Le
                                        - GtLt
                                        - GeLe
                                        - IsTrue
                                        - IsFalse
                                        type: string
                                      type:
                                        description: |-
                                          Type defines the value type for specific operators.
                                          The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                        type: string
                                      value:
                                        description: |-
                                          Value is the list of values that the operand evaluates the input
                                          against. Value should be empty if the operator is Exists, DoesNotExist,
                                          IsTrue or IsFalse. Value should contain exactly one element if the
                                          operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                          In other cases Value should contain at least one element.
                                        items:
                                          type: string
                                        type: array
                                    required:
                                    - op
                                    type: object
                                  description: |-
                                    MatchExpressions is the set of per-element expressions evaluated. These
                                    match against the value of the specified elements.
                                  type: object
                                matchName:
                                  description: |-
                                    MatchName in an expression that is matched against the name of each
                                    element in the feature set.
                                  properties:
                                    op:
                                      description: Op is the operator to be applied.
                                      enum:
                                      - In
                                      - NotIn
                                      - InRegexp
                                      - Exists
                                      - DoesNotExist
                                      - Gt
                                      - Ge
                                      - Lt
                                      - Le
                                      - GtLt
                                      - GeLe
                                      - IsTrue
                                      - IsFalse
                                      type: string
                                    type:
                                      description: |-
                                        Type defines the value type for specific operators.
                                        The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                      type: string
                                    value:
                                      description: |-
                                        Value is the list of values that the operand evaluates the input
                                        against. Value should be empty if the operator is Exists, DoesNotExist,
                                        IsTrue or IsFalse. Value should contain exactly one element if the
                                        operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                        In other cases Value should contain at least one element.
                                      items:
                                        type: string
                                      type: array
                                  required:
                                  - op
                                  type: object
                              required:
                              - feature
                              type: object
                            type: array
                        required:
                        - matchFeatures
                        type: object
                      type: array
                    matchFeatures:
                      description: MatchFeatures specifies a set of matcher terms
                        all of which must match.
                      items:
                        description: |-
                          FeatureMatcherTerm defines requirements against one feature set. All
                          requirements (specified as MatchExpressions) are evaluated against each
                          element in the feature set.
                        properties:
                          feature:
                            description: Feature is the name of the feature set to
                              match against.
                            type: string
                          matchExpressions:
                            additionalProperties:
                              description: |-
                                MatchExpression specifies an expression to evaluate against a set of input
                                values. It contains an operator that is applied when matching the input and
                                an array of values that the operator evaluates the input against.
                              properties:
                                op:
                                  description: Op is the operator to be applied.
                                  enum:
                                  - In
                                  - NotIn
                                  - InRegexp
                                  - Exists
                                  - DoesNotExist
                                  - Gt
                                  - Ge
                                  - Lt
                                  - Le
                                  - GtLt
                                  - GeLe
                                  - IsTrue
                                  - IsFalse
                                  type: string
                                type:
                                  description: |-
                                    Type defines the value type for specific operators.
                                    The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                  type: string
                                value:
                                  description: |-
                                    Value is the list of values that the operand evaluates the input
                                    against. Value should be empty if the operator is Exists, DoesNotExist,
                                    IsTrue or IsFalse. Value should contain exactly one element if the
                                    operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                    In other cases Value should contain at least one element.
                                  items:
                                    type: string
                                  type: array
                              required:
                              - op
                              type: object
                            description: |-
                              MatchExpressions is the set of per-element expressions evaluated. These
                              match against the value of the specified elements.
                            type: object
                          matchName:
                            description: |-
                              MatchName in an expression that is matched against the name of each
                              element in the feature set.
                            properties:
                              op:
                                description: Op is the operator to be applied.
                                enum:
                                - In
                                - NotIn
                                - InRegexp
                                - Exists
                                - DoesNotExist
                                - Gt
                                - Ge
                                - Lt
                                - Le
                                - GtLt
                                - GeLe
                                - IsTrue
                                - IsFalse
                                type: string
                              type:
                                description: |-
                                  Type defines the value type for specific operators.
                                  The currently supported type is 'version' for Gt,Ge,Lt,Le,GtLt,GeLe operators.
                                type: string
                              value:
                                description: |-
                                  Value is the list of values that the operand evaluates the input
                                  against. Value should be empty if the operator is Exists, DoesNotExist,
                                  IsTrue or IsFalse. Value should contain exactly one element if the
                                  operator is Gt or Lt and exactly two elements if the operator is GtLt.
                                  In other cases Value should contain at least one element.
                                items:
                                  type: string
                                type: array
                            required:
                            - op
                            type: object
                        required:
                        - feature
                        type: object
                      type: array
                    name:
                      description: Name of the rule.
                      type: string
                    taints:
                      description: Taints to create if the rule matches.
                      items:
                        description: |-
                          The node this Taint is attached to has the "effect" on
                          any pod that does not tolerate the Taint.
                        properties:
                          effect:
                            description: |-
                              Required. The effect of the taint on pods
                              that do not tolerate the taint.
                              Valid effects are NoSchedule, PreferNoSchedule and NoExecute.
                            type: string
                          key:
                            description: Required. The taint key to be applied to
                              a node.
                            type: string
                          timeAdded:
                            description: |-
                              TimeAdded represents the time at which the taint was added.
                              It is only written for NoExecute taints.
                            format: date-time
                            type: string
                          value:
                            description: The taint value corresponding to the taint
                              key.
                            type: string
                        required:
                        - effect
                        - key
                        type: object
                      type: array
                    vars:
                      additionalProperties:
                        type: string
                      description: |-
                        Vars is the variables to store if the rule matches. Variables do not
                        directly inflict any changes in the node object. However, they can be
                        referenced from other rules enabling more complex rule hierarchies,
                        without exposing intermediary output values as labels.
                      type: object
                    varsTemplate:
                      description: |-
                        VarsTemplate specifies a template to expand for dynamically generating
                        multiple variables. Data (after template expansion) must be keys with an
                        optional value (<key>[=<value>]) separated by newlines.
                      type: string
                  required:
                  - name
                  type: object
                type: array
            required:
            - rules
            type: object
        required:
        - spec
        type: object
    served: true
    storage: true
`,"network-operator-v26.4.0.yaml":`# Source: github.com/Mellanox/network-operator @ tag v26.4.0 (12e6d54ae20300151ef386da832809d83a8ab63d) : deployment/network-operator/crds/k8s.cni.cncf.io_networkattachmentdefinitions_crd.yaml
---
# Copyright 2020 NVIDIA
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: network-attachment-definitions.k8s.cni.cncf.io
spec:
  group: k8s.cni.cncf.io
  scope: Namespaced
  names:
    plural: network-attachment-definitions
    singular: network-attachment-definition
    kind: NetworkAttachmentDefinition
    shortNames:
    - net-attach-def
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          description: 'NetworkAttachmentDefinition is a CRD schema specified by the Network Plumbing
            Working Group to express the intent for attaching pods to one or more logical or physical
            networks. More information available at: https://github.com/k8snetworkplumbingwg/multi-net-spec'
          type: object
          properties:
            apiVersion:
              description: 'APIVersion defines the versioned schema of this represen
                tation of an object. Servers should convert recognized schemas to the
                latest internal value, and may reject unrecognized values. More info:
                https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources'
              type: string
            kind:
              description: 'Kind is a string value representing the REST resource this
                object represents. Servers may infer this from the endpoint the client
                submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'
              type: string
            metadata:
              type: object
            spec:
              description: 'NetworkAttachmentDefinition spec defines the desired state of a network attachment'
              type: object
              properties:
                config:
                  description: 'NetworkAttachmentDefinition config is a JSON-formatted CNI configuration'
                  type: string
# Source: github.com/Mellanox/network-operator @ tag v26.4.0 (12e6d54ae20300151ef386da832809d83a8ab63d) : deployment/network-operator/crds/mellanox.com_hostdevicenetworks.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.19.0
  name: hostdevicenetworks.mellanox.com
spec:
  group: mellanox.com
  names:
    kind: HostDeviceNetwork
    listKind: HostDeviceNetworkList
    plural: hostdevicenetworks
    singular: hostdevicenetwork
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: HostDeviceNetwork is the Schema for the hostdevicenetworks API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Defines the desired state of HostDeviceNetwork
            properties:
              ipam:
                description: IPAM configuration to be used for this network
                type: string
              networkNamespace:
                description: Namespace of the NetworkAttachmentDefinition custom resource
                type: string
              resourceName:
                description: Host device resource pool name
                type: string
            type: object
          status:
            description: Defines the observed state of HostDeviceNetwork
            properties:
              appliedStates:
                description: AppliedStates provide a finer view of the observed state
                items:
                  description: AppliedState defines a finer-grained view of the observed
                    state of NicClusterPolicy
                  properties:
                    message:
                      description: |-
                        Message is a human readable message indicating details about why
                        the state is in this condition
                      type: string
                    name:
                      description: Name of the deployed component this state refers
                        to
                      type: string
                    state:
                      description: The state of the deployed component. ("ready",
                        "notReady", "ignore", "error")
                      enum:
                      - ready
                      - notReady
                      - ignore
                      - error
                      type: string
                  required:
                  - name
                  - state
                  type: object
                type: array
              hostDeviceNetworkAttachmentDef:
                description: Network attachment definition generated from HostDeviceNetworkSpec
                type: string
              reason:
                description: Informative string in case the observed state is error
                type: string
              state:
                description: Reflects the state of the HostDeviceNetwork
                enum:
                - notReady
                - ready
                - error
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
# Source: github.com/Mellanox/network-operator @ tag v26.4.0 (12e6d54ae20300151ef386da832809d83a8ab63d) : deployment/network-operator/crds/mellanox.com_ipoibnetworks.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.19.0
  name: ipoibnetworks.mellanox.com
spec:
  group: mellanox.com
  names:
    kind: IPoIBNetwork
    listKind: IPoIBNetworkList
    plural: ipoibnetworks
    singular: ipoibnetwork
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: IPoIBNetwork is the Schema for the ipoibnetworks API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Defines the desired state of IPoIBNetwork
            properties:
              ipam:
                description: IPAM configuration to be used for this network.
                type: string
              master:
                description: Name of the host interface to enslave. Defaults to default
                  route interface
                type: string
              networkNamespace:
                description: Namespace of the NetworkAttachmentDefinition custom resource
                type: string
            type: object
          status:
            description: Defines the observed state of IPoIBNetwork
            properties:
              ipoibNetworkAttachmentDef:
                description: Network attachment definition generated from IPoIBNetworkSpec
                type: string
              reason:
                description: Informative string in case the observed state is error
                type: string
              state:
                description: Reflects the state of the IPoIBNetwork
                enum:
                - notReady
                - ready
                - error
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
# Source: github.com/Mellanox/network-operator @ tag v26.4.0 (12e6d54ae20300151ef386da832809d83a8ab63d) : deployment/network-operator/crds/mellanox.com_macvlannetworks.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.19.0
  name: macvlannetworks.mellanox.com
spec:
  group: mellanox.com
  names:
    kind: MacvlanNetwork
    listKind: MacvlanNetworkList
    plural: macvlannetworks
    singular: macvlannetwork
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: MacvlanNetwork is the Schema for the macvlannetworks API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Defines the desired state of MacvlanNetworkSpec
            properties:
              ipam:
                description: IPAM configuration to be used for this network.
                type: string
              master:
                description: Name of the host interface to enslave. Defaults to default
                  route interface
                type: string
              mode:
                description: Mode of interface one of "bridge", "private", "vepa",
                  "passthru"
                enum:
                - bridge
                - private
                - vepa
                - passthru
                type: string
              mtu:
                description: MTU of interface to the specified value. 0 for master's
                  MTU
                minimum: 0
                type: integer
              networkNamespace:
                description: Namespace of the NetworkAttachmentDefinition custom resource
                type: string
            type: object
          status:
            description: Defines the observed state of MacvlanNetwork
            properties:
              macvlanNetworkAttachmentDef:
                description: Network attachment definition generated from MacvlanNetworkSpec
                type: string
              reason:
                description: Informative string in case the observed state is error
                type: string
              state:
                description: Reflects the state of the MacvlanNetwork
                enum:
                - notReady
                - ready
                - error
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
# Source: github.com/Mellanox/network-operator @ tag v26.4.0 (12e6d54ae20300151ef386da832809d83a8ab63d) : deployment/network-operator/crds/mellanox.com_nicclusterpolicies.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.19.0
  name: nicclusterpolicies.mellanox.com
spec:
  group: mellanox.com
  names:
    kind: NicClusterPolicy
    listKind: NicClusterPolicyList
    plural: nicclusterpolicies
    shortNames:
    - ncp
    singular: nicclusterpolicy
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: NicClusterPolicy is the Schema for the nicclusterpolicies API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Defines the desired state of NicClusterPolicy
            properties:
              deploymentNodeAffinity:
                description: NodeAffinity rules to inject to the Deployments objects
                  that are managed by the operator
                properties:
                  preferredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      The scheduler will prefer to schedule pods to nodes that satisfy
                      the affinity expressions specified by this field, but it may choose
                      a node that violates one or more of the expressions. The node that is
                      most preferred is the one with the greatest sum of weights, i.e.
                      for each node that meets all of the scheduling requirements (resource
                      request, requiredDuringScheduling affinity expressions, etc.),
                      compute a sum by iterating through the elements of this field and adding
                      "weight" to the sum if the node matches the corresponding matchExpressions; the
                      node(s) with the highest sum are the most preferred.
                    items:
                      description: |-
                        An empty preferred scheduling term matches all objects with implicit weight 0
                        (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).
                      properties:
                        preference:
                          description: A node selector term, associated with the corresponding
                            weight.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        weight:
                          description: Weight associated with matching the corresponding
                            nodeSelectorTerm, in the range 1-100.
                          format: int32
                          type: integer
                      required:
                      - preference
                      - weight
                      type: object
                    type: array
                    x-kubernetes-list-type: atomic
                  requiredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      If the affinity requirements specified by this field are not met at
                      scheduling time, the pod will not be scheduled onto the node.
                      If the affinity requirements specified by this field cease to be met
                      at some point during pod execution (e.g. due to an update), the system
                      may or may not try to eventually evict the pod from its node.
                    properties:
                      nodeSelectorTerms:
                        description: Required. A list of node selector terms. The
                          terms are ORed.
                        items:
                          description: |-
                            A null or empty node selector term matches no objects. The requirements of
                            them are ANDed.
                            The TopologySelectorTerm type implements a subset of the NodeSelectorTerm.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        type: array
                        x-kubernetes-list-type: atomic
                    required:
                    - nodeSelectorTerms
                    type: object
                    x-kubernetes-map-type: atomic
                type: object
              deploymentTolerations:
                description: Tolerations to inject to the Deployments objects that
                  are managed by the operator
                items:
                  description: |-
                    The pod this Toleration is attached to tolerates any taint that matches
                    the triple <key,value,effect> using the matching operator <operator>.
                  properties:
                    effect:
                      description: |-
                        Effect indicates the taint effect to match. Empty means match all taint effects.
                        When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.
                      type: string
                    key:
                      description: |-
                        Key is the taint key that the toleration applies to. Empty means match all taint keys.
                        If the key is empty, operator must be Exists; this combination means to match all values and all keys.
                      type: string
                    operator:
                      description: |-
                        Operator represents a key's relationship to the value.
                        Valid operators are Exists and Equal. Defaults to Equal.
                        Exists is equivalent to wildcard for value, so that a pod can
                        tolerate all taints of a particular category.
                      type: string
                    tolerationSeconds:
                      description: |-
                        TolerationSeconds represents the period of time the toleration (which must be
                        of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default,
                        it is not set, which means tolerate the taint forever (do not evict). Zero and
                        negative values will be treated as 0 (evict immediately) by the system.
                      format: int64
                      type: integer
                    value:
                      description: |-
                        Value is the taint value the toleration matches to.
                        If the operator is Exists, the value should be empty, otherwise just a regular string.
                      type: string
                  type: object
                type: array
              docaTelemetryService:
                description: |-
                  DOCATelemetryService exposes telemetry from NVIDIA networking components to prometheus.
                  See: https://docs.nvidia.com/doca/sdk/doca+telemetry+service+guide/index.html
                properties:
                  config:
                    description: |-
                      Config contains custom config for the DOCATelemetryService.
                      If set no default config will be deployed.
                    properties:
                      fromConfigMap:
                        description: |-
                          FromConfigMap sets the configMap the DOCATelemetryService gets its configuration from. The ConfigMap must be in
                          the same namespace as the NICClusterPolicy.
                        type: string
                    type: object
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                type: object
              global:
                description: Global contains global configuration for all components
                properties:
                  imagePullSecrets:
                    description: ImagePullSecrets is a list of secret names for pulling
                      component images
                    items:
                      type: string
                    type: array
                  repository:
                    description: Repository is the default container image repository
                      for all components
                    type: string
                  version:
                    description: Version is the default version tag for all component
                      images
                    type: string
                type: object
              ibKubernetes:
                description: |-
                  IBKubernetes provides a daemon that works in conjunction with the SR-IOV Network Device Plugin.
                  It acts on Kubernetes pod object changes and reads the pod's network annotation.
                  From there it fetches the corresponding network CRD and reads the PKey.
                  This is done in order to add the newly generated GUID or the predefined GUID in the GUID field of the CRD.
                  This is then passed in cni-args to that PKey for pods with mellanox.infiniband.app annotation.
                  See: https://github.com/Mellanox/ib-kubernetes
                properties:
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  pKeyGUIDPoolRangeEnd:
                    description: The last guid in the pool
                    type: string
                  pKeyGUIDPoolRangeStart:
                    description: The first guid in the pool
                    type: string
                  periodicUpdateSeconds:
                    default: 5
                    description: Interval of updates in seconds
                    minimum: 0
                    type: integer
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  ufmSecret:
                    description: Secret containing credentials to UFM service
                    type: string
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                - pKeyGUIDPoolRangeEnd
                - pKeyGUIDPoolRangeStart
                - ufmSecret
                type: object
              nicConfigurationOperator:
                description: |-
                  NicConfigurationOperator provides Kubernetes CRD API to allow FW configuration on NVIDIA NICs in a coordinated manner
                  See: https://github.com/Mellanox/nic-configuration-operator
                properties:
                  configurationDaemon:
                    description: Image information for nic-configuration-daemon
                    properties:
                      containerResources:
                        description: ResourceRequirements describes the compute resource
                          requirements
                        items:
                          description: ResourceRequirements describes the compute
                            resource requirements.
                          properties:
                            limits:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Limits describes the maximum amount of compute resources allowed.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                            name:
                              description: Name of the container the requirements
                                are set for
                              type: string
                            requests:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Requests describes the minimum amount of compute resources required.
                                If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Name of the image
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullSecrets:
                        default: []
                        description: |-
                          ImagePullSecrets is an optional list of references to secrets in the same
                          namespace to use for pulling the image
                        items:
                          type: string
                        type: array
                      repository:
                        description: Address of the registry that stores the image
                        pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                        type: string
                      version:
                        description: Version of the image to use
                        type: string
                    required:
                    - image
                    type: object
                  env:
                    description: List of environment variables to set in the NIC Configuration
                      Operator and NIC Configuration Daemon containers.
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: |-
                            Name of the environment variable.
                            May consist of any printable ASCII characters except '='.
                          type: string
                        value:
                          description: |-
                            Variable references $(VAR_NAME) are expanded
                            using the previously defined environment variables in the container and
                            any service environment variables. If a variable cannot be resolved,
                            the reference in the input string will be unchanged. Double $$ are reduced
                            to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e.
                            "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)".
                            Escaped references will never be expanded, regardless of whether the variable
                            exists or not.
                            Defaults to "".
                          type: string
                        valueFrom:
                          description: Source for the environment variable's value.
                            Cannot be used if value is not empty.
                          properties:
                            configMapKeyRef:
                              description: Selects a key of a ConfigMap.
                              properties:
                                key:
                                  description: The key to select.
                                  type: string
                                name:
                                  default: ""
                                  description: |-
                                    Name of the referent.
                                    This field is effectively required, but due to backwards compatibility is
                                    allowed to be empty. Instances of this type with an empty value here are
                                    almost certainly wrong.
                                    More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
                                  type: string
                                optional:
                                  description: Specify whether the ConfigMap or its
                                    key must be defined
                                  type: boolean
                              required:
                              - key
                              type: object
                              x-kubernetes-map-type: atomic
                            fieldRef:
                              description: |-
                                Selects a field of the pod: supports metadata.name, metadata.namespace, \`metadata.labels['<KEY>']\`, \`metadata.annotations['<KEY>']\`,
                                spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.
                              properties:
                                apiVersion:
                                  description: Version of the schema the FieldPath
                                    is written in terms of, defaults to "v1".
                                  type: string
                                fieldPath:
                                  description: Path of the field to select in the
                                    specified API version.
                                  type: string
                              required:
                              - fieldPath
                              type: object
                              x-kubernetes-map-type: atomic
                            fileKeyRef:
                              description: |-
                                FileKeyRef selects a key of the env file.
                                Requires the EnvFiles feature gate to be enabled.
                              properties:
                                key:
                                  description: |-
                                    The key within the env file. An invalid key will prevent the pod from starting.
                                    The keys defined within a source may consist of any printable ASCII characters except '='.
                                    During Alpha stage of the EnvFiles feature gate, the key size is limited to 128 characters.
                                  type: string
                                optional:
                                  default: false
                                  description: |-
                                    Specify whether the file or its key must be defined. If the file or key
                                    does not exist, then the env var is not published.
                                    If optional is set to true and the specified key does not exist,
                                    the environment variable will not be set in the Pod's containers.

                                    If optional is set to false and the specified key does not exist,
                                    an error will be returned during Pod creation.
                                  type: boolean
                                path:
                                  description: |-
                                    The path within the volume from which to select the file.
                                    Must be relative and may not contain the '..' path or start with '..'.
                                  type: string
                                volumeName:
                                  description: The name of the volume mount containing
                                    the env file.
                                  type: string
                              required:
                              - key
                              - path
                              - volumeName
                              type: object
                              x-kubernetes-map-type: atomic
                            resourceFieldRef:
                              description: |-
                                Selects a resource of the container: only resources limits and requests
                                (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.
                              properties:
                                containerName:
                                  description: 'Container name: required for volumes,
                                    optional for env vars'
                                  type: string
                                divisor:
                                  anyOf:
                                  - type: integer
                                  - type: string
                                  description: Specifies the output format of the
                                    exposed resources, defaults to "1"
                                  pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                  x-kubernetes-int-or-string: true
                                resource:
                                  description: 'Required: resource to select'
                                  type: string
                              required:
                              - resource
                              type: object
                              x-kubernetes-map-type: atomic
                            secretKeyRef:
                              description: Selects a key of a secret in the pod's
                                namespace
                              properties:
                                key:
                                  description: The key of the secret to select from.  Must
                                    be a valid secret key.
                                  type: string
                                name:
                                  default: ""
                                  description: |-
                                    Name of the referent.
                                    This field is effectively required, but due to backwards compatibility is
                                    allowed to be empty. Instances of this type with an empty value here are
                                    almost certainly wrong.
                                    More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
                                  type: string
                                optional:
                                  description: Specify whether the Secret or its key
                                    must be defined
                                  type: boolean
                              required:
                              - key
                              type: object
                              x-kubernetes-map-type: atomic
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  logLevel:
                    default: info
                    description: LogLevel sets the verbosity level of the logs. info|debug
                    enum:
                    - info
                    - debug
                    type: string
                  nicFirmwareStorage:
                    description: NicFirmwareStorage contains configuration for the
                      NIC firmware storage. If not provided, the NIC firmware storage
                      will not be configured.
                    properties:
                      availableStorageSize:
                        default: 1Gi
                        description: 'AvailableStorageSize is storage size for the
                          NIC Configuration Operator to request. Only applies if nicFirmwareStorage.create
                          == true. Default value: 1Gi'
                        pattern: ^(\\d+)(Ei|Pi|Ti|Gi|Mi|Ki)$
                        type: string
                        x-kubernetes-validations:
                        - message: availableStorageSize is immutable once set. nicFirmwareStorage
                            should be deleted and created again with a new value.
                          rule: self == oldSelf
                      create:
                        default: true
                        description: |-
                          Create specifies whether to create a new PVC or use an existing one
                          If create == false, the existing PVC with the name specified in pvcName should be located in the same namespace as the operator
                        type: boolean
                      pvcName:
                        default: nic-fw-storage-pvc
                        description: 'PVCName is the name of the PVC to mount as NIC
                          Firmware storage. Default value: "nic-fw-storage-pvc"'
                        maxLength: 63
                        minLength: 1
                        pattern: ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
                        type: string
                      storageClassName:
                        description: |-
                          StorageClassName is the name of a storage class to be used to store NIC FW binaries during NIC FW upgrade.
                          If not provided, the cluster-default storage class will be used
                        maxLength: 63
                        minLength: 1
                        pattern: ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$
                        type: string
                        x-kubernetes-validations:
                        - message: storageClassName is immutable once set. nicFirmwareStorage
                            should be deleted and created again with a new value.
                          rule: self == oldSelf
                    type: object
                  operator:
                    description: Image information for nic-configuration-operator
                    properties:
                      containerResources:
                        description: ResourceRequirements describes the compute resource
                          requirements
                        items:
                          description: ResourceRequirements describes the compute
                            resource requirements.
                          properties:
                            limits:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Limits describes the maximum amount of compute resources allowed.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                            name:
                              description: Name of the container the requirements
                                are set for
                              type: string
                            requests:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Requests describes the minimum amount of compute resources required.
                                If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Name of the image
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullSecrets:
                        default: []
                        description: |-
                          ImagePullSecrets is an optional list of references to secrets in the same
                          namespace to use for pulling the image
                        items:
                          type: string
                        type: array
                      repository:
                        description: Address of the registry that stores the image
                        pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                        type: string
                      version:
                        description: Version of the image to use
                        type: string
                    required:
                    - image
                    type: object
                required:
                - configurationDaemon
                - operator
                type: object
              nicFeatureDiscovery:
                description: |-
                  NicFeatureDiscovery works with NodeFeatureDiscovery to expose information about NVIDIA NICs.
                  https://github.com/Mellanox/nic-feature-discovery
                properties:
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                type: object
              nodeAffinity:
                description: NodeAffinity rules to inject to the DaemonSets objects
                  that are managed by the operator
                properties:
                  preferredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      The scheduler will prefer to schedule pods to nodes that satisfy
                      the affinity expressions specified by this field, but it may choose
                      a node that violates one or more of the expressions. The node that is
                      most preferred is the one with the greatest sum of weights, i.e.
                      for each node that meets all of the scheduling requirements (resource
                      request, requiredDuringScheduling affinity expressions, etc.),
                      compute a sum by iterating through the elements of this field and adding
                      "weight" to the sum if the node matches the corresponding matchExpressions; the
                      node(s) with the highest sum are the most preferred.
                    items:
                      description: |-
                        An empty preferred scheduling term matches all objects with implicit weight 0
                        (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).
                      properties:
                        preference:
                          description: A node selector term, associated with the corresponding
                            weight.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        weight:
                          description: Weight associated with matching the corresponding
                            nodeSelectorTerm, in the range 1-100.
                          format: int32
                          type: integer
                      required:
                      - preference
                      - weight
                      type: object
                    type: array
                    x-kubernetes-list-type: atomic
                  requiredDuringSchedulingIgnoredDuringExecution:
                    description: |-
                      If the affinity requirements specified by this field are not met at
                      scheduling time, the pod will not be scheduled onto the node.
                      If the affinity requirements specified by this field cease to be met
                      at some point during pod execution (e.g. due to an update), the system
                      may or may not try to eventually evict the pod from its node.
                    properties:
                      nodeSelectorTerms:
                        description: Required. A list of node selector terms. The
                          terms are ORed.
                        items:
                          description: |-
                            A null or empty node selector term matches no objects. The requirements of
                            them are ANDed.
                            The TopologySelectorTerm type implements a subset of the NodeSelectorTerm.
                          properties:
                            matchExpressions:
                              description: A list of node selector requirements by
                                node's labels.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                            matchFields:
                              description: A list of node selector requirements by
                                node's fields.
                              items:
                                description: |-
                                  A node selector requirement is a selector that contains values, a key, and an operator
                                  that relates the key and values.
                                properties:
                                  key:
                                    description: The label key that the selector applies
                                      to.
                                    type: string
                                  operator:
                                    description: |-
                                      Represents a key's relationship to a set of values.
                                      Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
                                    type: string
                                  values:
                                    description: |-
                                      An array of string values. If the operator is In or NotIn,
                                      the values array must be non-empty. If the operator is Exists or DoesNotExist,
                                      the values array must be empty. If the operator is Gt or Lt, the values
                                      array must have a single element, which will be interpreted as an integer.
                                      This array is replaced during a strategic merge patch.
                                    items:
                                      type: string
                                    type: array
                                    x-kubernetes-list-type: atomic
                                required:
                                - key
                                - operator
                                type: object
                              type: array
                              x-kubernetes-list-type: atomic
                          type: object
                          x-kubernetes-map-type: atomic
                        type: array
                        x-kubernetes-list-type: atomic
                    required:
                    - nodeSelectorTerms
                    type: object
                    x-kubernetes-map-type: atomic
                type: object
              nvIpam:
                description: |-
                  NvIpam is an IPAM provider that dynamically assigns IP addresses with speed and performance in mind.
                  Note: NvIPam requires certificate management e.g. cert-manager or OpenShift cert management.
                  See https://github.com/Mellanox/nvidia-k8s-ipam
                properties:
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  enableWebhook:
                    description: Enable deployment of the validation webhook
                    type: boolean
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                type: object
              ofedDriver:
                description: |-
                  OFEDDriver is a specialized driver for NVIDIA NICs which can replace the inbox driver that comes with an OS.
                  See https://network.nvidia.com/support/mlnx-ofed-matrix/
                properties:
                  certConfig:
                    description: 'Optional: Custom TLS certificates configuration
                      for DOCA-OFED driver container'
                    properties:
                      name:
                        description: Name of the ConfigMap
                        type: string
                    type: object
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  env:
                    description: List of environment variables to set in the DOCA-OFED
                      driver container.
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: |-
                            Name of the environment variable.
                            May consist of any printable ASCII characters except '='.
                          type: string
                        value:
                          description: |-
                            Variable references $(VAR_NAME) are expanded
                            using the previously defined environment variables in the container and
                            any service environment variables. If a variable cannot be resolved,
                            the reference in the input string will be unchanged. Double $$ are reduced
                            to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e.
                            "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)".
                            Escaped references will never be expanded, regardless of whether the variable
                            exists or not.
                            Defaults to "".
                          type: string
                        valueFrom:
                          description: Source for the environment variable's value.
                            Cannot be used if value is not empty.
                          properties:
                            configMapKeyRef:
                              description: Selects a key of a ConfigMap.
                              properties:
                                key:
                                  description: The key to select.
                                  type: string
                                name:
                                  default: ""
                                  description: |-
                                    Name of the referent.
                                    This field is effectively required, but due to backwards compatibility is
                                    allowed to be empty. Instances of this type with an empty value here are
                                    almost certainly wrong.
                                    More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
                                  type: string
                                optional:
                                  description: Specify whether the ConfigMap or its
                                    key must be defined
                                  type: boolean
                              required:
                              - key
                              type: object
                              x-kubernetes-map-type: atomic
                            fieldRef:
                              description: |-
                                Selects a field of the pod: supports metadata.name, metadata.namespace, \`metadata.labels['<KEY>']\`, \`metadata.annotations['<KEY>']\`,
                                spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.
                              properties:
                                apiVersion:
                                  description: Version of the schema the FieldPath
                                    is written in terms of, defaults to "v1".
                                  type: string
                                fieldPath:
                                  description: Path of the field to select in the
                                    specified API version.
                                  type: string
                              required:
                              - fieldPath
                              type: object
                              x-kubernetes-map-type: atomic
                            fileKeyRef:
                              description: |-
                                FileKeyRef selects a key of the env file.
                                Requires the EnvFiles feature gate to be enabled.
                              properties:
                                key:
                                  description: |-
                                    The key within the env file. An invalid key will prevent the pod from starting.
                                    The keys defined within a source may consist of any printable ASCII characters except '='.
                                    During Alpha stage of the EnvFiles feature gate, the key size is limited to 128 characters.
                                  type: string
                                optional:
                                  default: false
                                  description: |-
                                    Specify whether the file or its key must be defined. If the file or key
                                    does not exist, then the env var is not published.
                                    If optional is set to true and the specified key does not exist,
                                    the environment variable will not be set in the Pod's containers.

                                    If optional is set to false and the specified key does not exist,
                                    an error will be returned during Pod creation.
                                  type: boolean
                                path:
                                  description: |-
                                    The path within the volume from which to select the file.
                                    Must be relative and may not contain the '..' path or start with '..'.
                                  type: string
                                volumeName:
                                  description: The name of the volume mount containing
                                    the env file.
                                  type: string
                              required:
                              - key
                              - path
                              - volumeName
                              type: object
                              x-kubernetes-map-type: atomic
                            resourceFieldRef:
                              description: |-
                                Selects a resource of the container: only resources limits and requests
                                (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.
                              properties:
                                containerName:
                                  description: 'Container name: required for volumes,
                                    optional for env vars'
                                  type: string
                                divisor:
                                  anyOf:
                                  - type: integer
                                  - type: string
                                  description: Specifies the output format of the
                                    exposed resources, defaults to "1"
                                  pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                  x-kubernetes-int-or-string: true
                                resource:
                                  description: 'Required: resource to select'
                                  type: string
                              required:
                              - resource
                              type: object
                              x-kubernetes-map-type: atomic
                            secretKeyRef:
                              description: Selects a key of a secret in the pod's
                                namespace
                              properties:
                                key:
                                  description: The key of the secret to select from.  Must
                                    be a valid secret key.
                                  type: string
                                name:
                                  default: ""
                                  description: |-
                                    Name of the referent.
                                    This field is effectively required, but due to backwards compatibility is
                                    allowed to be empty. Instances of this type with an empty value here are
                                    almost certainly wrong.
                                    More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
                                  type: string
                                optional:
                                  description: Specify whether the Secret or its key
                                    must be defined
                                  type: boolean
                              required:
                              - key
                              type: object
                              x-kubernetes-map-type: atomic
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  forcePrecompiled:
                    default: false
                    description: |-
                      ForcePrecompiled specifies if only DOCA-OFED driver precompiled images are allowed
                      If set to false and precompiled image does not exists, DOCA-OFED driver will be compiled on Nodes
                      If set to true and precompiled image does not exists, OFED state will be Error.
                    type: boolean
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  livenessProbe:
                    description: Pod liveness probe settings
                    properties:
                      failureThreshold:
                        description: Minimum consecutive failures for the probe to
                          be considered failed after having succeeded
                        type: integer
                      initialDelaySeconds:
                        description: Number of seconds after the container has started
                          before the probe is initiated
                        type: integer
                      periodSeconds:
                        description: How often (in seconds) to perform the probe
                        type: integer
                      timeoutSeconds:
                        description: Number of seconds after which the probe times
                          out
                        type: integer
                    required:
                    - initialDelaySeconds
                    - periodSeconds
                    type: object
                  readinessProbe:
                    description: Pod readiness probe settings
                    properties:
                      failureThreshold:
                        description: Minimum consecutive failures for the probe to
                          be considered failed after having succeeded
                        type: integer
                      initialDelaySeconds:
                        description: Number of seconds after the container has started
                          before the probe is initiated
                        type: integer
                      periodSeconds:
                        description: How often (in seconds) to perform the probe
                        type: integer
                      timeoutSeconds:
                        description: Number of seconds after which the probe times
                          out
                        type: integer
                    required:
                    - initialDelaySeconds
                    - periodSeconds
                    type: object
                  repoConfig:
                    description: 'Optional: Custom package repository configuration
                      for DOCA-OFED driver container'
                    properties:
                      name:
                        description: Name of the ConfigMap
                        type: string
                    type: object
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  startupProbe:
                    description: Pod startup probe settings
                    properties:
                      failureThreshold:
                        description: Minimum consecutive failures for the probe to
                          be considered failed after having succeeded
                        type: integer
                      initialDelaySeconds:
                        description: Number of seconds after the container has started
                          before the probe is initiated
                        type: integer
                      periodSeconds:
                        description: How often (in seconds) to perform the probe
                        type: integer
                      timeoutSeconds:
                        description: Number of seconds after which the probe times
                          out
                        type: integer
                    required:
                    - initialDelaySeconds
                    - periodSeconds
                    type: object
                  terminationGracePeriodSeconds:
                    default: 300
                    description: |-
                      TerminationGracePeriodSeconds specifies the length of time in seconds
                      to wait before killing the DOCA-OFED driver container pod on termination
                    format: int64
                    minimum: 0
                    type: integer
                  upgradePolicy:
                    description: DOCA-OFED driver auto-upgrade settings
                    properties:
                      autoUpgrade:
                        default: false
                        description: |-
                          AutoUpgrade is a global switch for automatic upgrade feature
                          if set to false all other options are ignored
                        type: boolean
                      drain:
                        description: The configuration for node drain during automatic
                          upgrade
                        properties:
                          deleteEmptyDir:
                            default: false
                            description: |-
                              DeleteEmptyDir indicates if should continue even if there are pods using emptyDir
                              (local data that will be deleted when the node is drained)
                            type: boolean
                          enable:
                            default: true
                            description: Enable indicates if node draining is allowed
                              during upgrade
                            type: boolean
                          force:
                            default: false
                            description: Force indicates if force draining is allowed
                            type: boolean
                          podSelector:
                            description: |-
                              PodSelector specifies a label selector to filter pods on the node that need to be drained
                              For more details on label selectors, see:
                              https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                            type: string
                          timeoutSeconds:
                            default: 300
                            description: TimeoutSecond specifies the length of time
                              in seconds to wait before giving up drain, zero means
                              infinite
                            minimum: 0
                            type: integer
                        type: object
                      maxParallelUpgrades:
                        default: 1
                        description: |-
                          MaxParallelUpgrades indicates how many nodes can be upgraded in parallel
                          0 means no limit, all nodes will be upgraded in parallel
                        minimum: 0
                        type: integer
                      safeLoad:
                        default: false
                        description: SafeLoad turn on safe driver loading (cordon
                          and drain the node before loading the driver)
                        type: boolean
                      waitForCompletion:
                        description: The configuration for waiting on pods completions
                        properties:
                          podSelector:
                            description: |-
                              PodSelector specifies a label selector for the pods to wait for completion
                              For more details on label selectors, see:
                              https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                            type: string
                          timeoutSeconds:
                            default: 0
                            description: |-
                              TimeoutSecond specifies the length of time in seconds
                              to wait before giving up on pod termination, zero means infinite
                            minimum: 0
                            type: integer
                        type: object
                    type: object
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                type: object
              rdmaSharedDevicePlugin:
                description: |-
                  RdmaSharedDevicePlugin manages support IB and RoCE HCAs through the Kubernetes device plugin framework.
                  The config field is a json representation of the RDMA shared device plugin configuration.
                  See https://github.com/Mellanox/k8s-rdma-shared-dev-plugin
                properties:
                  config:
                    description: Configuration for the component as a string
                    type: string
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  useCdi:
                    description: |-
                      Enables use of container device interface (CDI)
                      NOTE: NVIDIA Network Operator does not configure container runtime to enable CDI.
                    type: boolean
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                type: object
              secondaryNetwork:
                description: |-
                  SecondaryNetwork Specifies components to deploy in order to facilitate a secondary network in Kubernetes.
                  It consists of the following optionally deployed components:
                  - Multus-CNI: Delegate CNI plugin to support secondary networks in Kubernetes
                  - CNI plugins: Currently only containernetworking-plugins is supported
                  - IPoIB CNI: Allows the user to create IPoIB child link and move it to the pod
                properties:
                  cniPlugins:
                    description: Image information for CNI plugins
                    properties:
                      containerResources:
                        description: ResourceRequirements describes the compute resource
                          requirements
                        items:
                          description: ResourceRequirements describes the compute
                            resource requirements.
                          properties:
                            limits:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Limits describes the maximum amount of compute resources allowed.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                            name:
                              description: Name of the container the requirements
                                are set for
                              type: string
                            requests:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Requests describes the minimum amount of compute resources required.
                                If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Name of the image
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullSecrets:
                        default: []
                        description: |-
                          ImagePullSecrets is an optional list of references to secrets in the same
                          namespace to use for pulling the image
                        items:
                          type: string
                        type: array
                      repository:
                        description: Address of the registry that stores the image
                        pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                        type: string
                      version:
                        description: Version of the image to use
                        type: string
                    required:
                    - image
                    type: object
                  ipoib:
                    description: Image information for IPoIB CNI
                    properties:
                      containerResources:
                        description: ResourceRequirements describes the compute resource
                          requirements
                        items:
                          description: ResourceRequirements describes the compute
                            resource requirements.
                          properties:
                            limits:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Limits describes the maximum amount of compute resources allowed.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                            name:
                              description: Name of the container the requirements
                                are set for
                              type: string
                            requests:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Requests describes the minimum amount of compute resources required.
                                If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Name of the image
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullSecrets:
                        default: []
                        description: |-
                          ImagePullSecrets is an optional list of references to secrets in the same
                          namespace to use for pulling the image
                        items:
                          type: string
                        type: array
                      repository:
                        description: Address of the registry that stores the image
                        pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                        type: string
                      version:
                        description: Version of the image to use
                        type: string
                    required:
                    - image
                    type: object
                  multus:
                    description: Image and configuration information for multus
                    properties:
                      config:
                        description: Configuration for the component as a string
                        type: string
                      containerResources:
                        description: ResourceRequirements describes the compute resource
                          requirements
                        items:
                          description: ResourceRequirements describes the compute
                            resource requirements.
                          properties:
                            limits:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Limits describes the maximum amount of compute resources allowed.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                            name:
                              description: Name of the container the requirements
                                are set for
                              type: string
                            requests:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Requests describes the minimum amount of compute resources required.
                                If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Name of the image
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullSecrets:
                        default: []
                        description: |-
                          ImagePullSecrets is an optional list of references to secrets in the same
                          namespace to use for pulling the image
                        items:
                          type: string
                        type: array
                      repository:
                        description: Address of the registry that stores the image
                        pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                        type: string
                      version:
                        description: Version of the image to use
                        type: string
                    required:
                    - image
                    type: object
                type: object
              spectrumXOperator:
                description: |-
                  SpectrumXOperator exposes NVIDIA Spectrum-X Operator.
                  See: https://github.com/Mellanox/spectrum-x-operator/
                properties:
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  version:
                    description: Version of the image to use
                    type: string
                  xPlane:
                    description: ImageSpec Contains container image specifications
                    properties:
                      containerResources:
                        description: ResourceRequirements describes the compute resource
                          requirements
                        items:
                          description: ResourceRequirements describes the compute
                            resource requirements.
                          properties:
                            limits:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Limits describes the maximum amount of compute resources allowed.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                            name:
                              description: Name of the container the requirements
                                are set for
                              type: string
                            requests:
                              additionalProperties:
                                anyOf:
                                - type: integer
                                - type: string
                                pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                x-kubernetes-int-or-string: true
                              description: |-
                                Requests describes the minimum amount of compute resources required.
                                If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                                otherwise to an implementation-defined value. Requests cannot exceed Limits.
                                More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                              type: object
                          required:
                          - name
                          type: object
                        type: array
                      image:
                        description: Name of the image
                        pattern: '[a-zA-Z0-9\\-]+'
                        type: string
                      imagePullSecrets:
                        default: []
                        description: |-
                          ImagePullSecrets is an optional list of references to secrets in the same
                          namespace to use for pulling the image
                        items:
                          type: string
                        type: array
                      repository:
                        description: Address of the registry that stores the image
                        pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                        type: string
                      version:
                        description: Version of the image to use
                        type: string
                    required:
                    - image
                    type: object
                required:
                - image
                type: object
              sriovDevicePlugin:
                description: |-
                  SriovDevicePlugin manages SRIOV through the Kubernetes device plugin framework.
                  The config field is a json representation of the RDMA shared device plugin configuration.
                  See https://github.com/k8snetworkplumbingwg/sriov-network-device-plugin
                properties:
                  config:
                    description: Configuration for the component as a string
                    type: string
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  useCdi:
                    description: |-
                      Enables use of container device interface (CDI)
                      NOTE: NVIDIA Network Operator does not configure container runtime to enable CDI.
                    type: boolean
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                type: object
              tolerations:
                description: Tolerations to inject to the DaemonSets objects that
                  are managed by the operator
                items:
                  description: |-
                    The pod this Toleration is attached to tolerates any taint that matches
                    the triple <key,value,effect> using the matching operator <operator>.
                  properties:
                    effect:
                      description: |-
                        Effect indicates the taint effect to match. Empty means match all taint effects.
                        When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.
                      type: string
                    key:
                      description: |-
                        Key is the taint key that the toleration applies to. Empty means match all taint keys.
                        If the key is empty, operator must be Exists; this combination means to match all values and all keys.
                      type: string
                    operator:
                      description: |-
                        Operator represents a key's relationship to the value.
                        Valid operators are Exists and Equal. Defaults to Equal.
                        Exists is equivalent to wildcard for value, so that a pod can
                        tolerate all taints of a particular category.
                      type: string
                    tolerationSeconds:
                      description: |-
                        TolerationSeconds represents the period of time the toleration (which must be
                        of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default,
                        it is not set, which means tolerate the taint forever (do not evict). Zero and
                        negative values will be treated as 0 (evict immediately) by the system.
                      format: int64
                      type: integer
                    value:
                      description: |-
                        Value is the taint value the toleration matches to.
                        If the operator is Exists, the value should be empty, otherwise just a regular string.
                      type: string
                  type: object
                type: array
            type: object
          status:
            description: Defines the observed state of NicClusterPolicy
            properties:
              appliedStates:
                description: AppliedStates provide a finer view of the observed state
                items:
                  description: AppliedState defines a finer-grained view of the observed
                    state of NicClusterPolicy
                  properties:
                    message:
                      description: |-
                        Message is a human readable message indicating details about why
                        the state is in this condition
                      type: string
                    name:
                      description: Name of the deployed component this state refers
                        to
                      type: string
                    state:
                      description: The state of the deployed component. ("ready",
                        "notReady", "ignore", "error")
                      enum:
                      - ready
                      - notReady
                      - ignore
                      - error
                      type: string
                  required:
                  - name
                  - state
                  type: object
                type: array
              reason:
                description: Informative string in case the observed state is error
                type: string
              state:
                description: Reflects the current state of the cluster policy
                enum:
                - ignore
                - notReady
                - ready
                - error
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
# Source: github.com/Mellanox/network-operator @ tag v26.4.0 (12e6d54ae20300151ef386da832809d83a8ab63d) : deployment/network-operator/crds/mellanox.com_nicnodepolicies.yaml
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.19.0
  name: nicnodepolicies.mellanox.com
spec:
  group: mellanox.com
  names:
    kind: NicNodePolicy
    listKind: NicNodePolicyList
    plural: nicnodepolicies
    shortNames:
    - nicnode
    - nnp
    singular: nicnodepolicy
  scope: Cluster
  versions:
  - additionalPrinterColumns:
    - jsonPath: .status.state
      name: Status
      type: string
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: string
    name: v1alpha1
    schema:
      openAPIV3Schema:
        description: NicNodePolicy is the Schema for the NicNodePolicies API
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: Defines the desired state of NicNodePolicy
            properties:
              annotations:
                additionalProperties:
                  type: string
                description: |-
                  Optional: Annotations is an unstructured key value map stored with a resource that may be
                  set by external tools to store and retrieve arbitrary metadata. They are not
                  queryable and should be preserved when modifying objects.
                type: object
              labels:
                additionalProperties:
                  type: string
                description: |-
                  Optional: Map of string keys and values that can be used to organize and categorize
                  (scope and select) objects. May match selectors of replication controllers
                  and services.
                type: object
              nodeSelector:
                additionalProperties:
                  type: string
                description: NodeSelector specifies a selector for the nodes this
                  policy applies to
                type: object
              ofedDriver:
                description: |-
                  OFEDDriver is a specialized driver for NVIDIA NICs which can replace the inbox driver that comes with an OS.
                  See https://network.nvidia.com/support/mlnx-ofed-matrix/
                properties:
                  certConfig:
                    description: 'Optional: Custom TLS certificates configuration
                      for DOCA-OFED driver container'
                    properties:
                      name:
                        description: Name of the ConfigMap
                        type: string
                    type: object
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  env:
                    description: List of environment variables to set in the DOCA-OFED
                      driver container.
                    items:
                      description: EnvVar represents an environment variable present
                        in a Container.
                      properties:
                        name:
                          description: |-
                            Name of the environment variable.
                            May consist of any printable ASCII characters except '='.
                          type: string
                        value:
                          description: |-
                            Variable references $(VAR_NAME) are expanded
                            using the previously defined environment variables in the container and
                            any service environment variables. If a variable cannot be resolved,
                            the reference in the input string will be unchanged. Double $$ are reduced
                            to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e.
                            "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)".
                            Escaped references will never be expanded, regardless of whether the variable
                            exists or not.
                            Defaults to "".
                          type: string
                        valueFrom:
                          description: Source for the environment variable's value.
                            Cannot be used if value is not empty.
                          properties:
                            configMapKeyRef:
                              description: Selects a key of a ConfigMap.
                              properties:
                                key:
                                  description: The key to select.
                                  type: string
                                name:
                                  default: ""
                                  description: |-
                                    Name of the referent.
                                    This field is effectively required, but due to backwards compatibility is
                                    allowed to be empty. Instances of this type with an empty value here are
                                    almost certainly wrong.
                                    More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
                                  type: string
                                optional:
                                  description: Specify whether the ConfigMap or its
                                    key must be defined
                                  type: boolean
                              required:
                              - key
                              type: object
                              x-kubernetes-map-type: atomic
                            fieldRef:
                              description: |-
                                Selects a field of the pod: supports metadata.name, metadata.namespace, \`metadata.labels['<KEY>']\`, \`metadata.annotations['<KEY>']\`,
                                spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.
                              properties:
                                apiVersion:
                                  description: Version of the schema the FieldPath
                                    is written in terms of, defaults to "v1".
                                  type: string
                                fieldPath:
                                  description: Path of the field to select in the
                                    specified API version.
                                  type: string
                              required:
                              - fieldPath
                              type: object
                              x-kubernetes-map-type: atomic
                            fileKeyRef:
                              description: |-
                                FileKeyRef selects a key of the env file.
                                Requires the EnvFiles feature gate to be enabled.
                              properties:
                                key:
                                  description: |-
                                    The key within the env file. An invalid key will prevent the pod from starting.
                                    The keys defined within a source may consist of any printable ASCII characters except '='.
                                    During Alpha stage of the EnvFiles feature gate, the key size is limited to 128 characters.
                                  type: string
                                optional:
                                  default: false
                                  description: |-
                                    Specify whether the file or its key must be defined. If the file or key
                                    does not exist, then the env var is not published.
                                    If optional is set to true and the specified key does not exist,
                                    the environment variable will not be set in the Pod's containers.

                                    If optional is set to false and the specified key does not exist,
                                    an error will be returned during Pod creation.
                                  type: boolean
                                path:
                                  description: |-
                                    The path within the volume from which to select the file.
                                    Must be relative and may not contain the '..' path or start with '..'.
                                  type: string
                                volumeName:
                                  description: The name of the volume mount containing
                                    the env file.
                                  type: string
                              required:
                              - key
                              - path
                              - volumeName
                              type: object
                              x-kubernetes-map-type: atomic
                            resourceFieldRef:
                              description: |-
                                Selects a resource of the container: only resources limits and requests
                                (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.
                              properties:
                                containerName:
                                  description: 'Container name: required for volumes,
                                    optional for env vars'
                                  type: string
                                divisor:
                                  anyOf:
                                  - type: integer
                                  - type: string
                                  description: Specifies the output format of the
                                    exposed resources, defaults to "1"
                                  pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                                  x-kubernetes-int-or-string: true
                                resource:
                                  description: 'Required: resource to select'
                                  type: string
                              required:
                              - resource
                              type: object
                              x-kubernetes-map-type: atomic
                            secretKeyRef:
                              description: Selects a key of a secret in the pod's
                                namespace
                              properties:
                                key:
                                  description: The key of the secret to select from.  Must
                                    be a valid secret key.
                                  type: string
                                name:
                                  default: ""
                                  description: |-
                                    Name of the referent.
                                    This field is effectively required, but due to backwards compatibility is
                                    allowed to be empty. Instances of this type with an empty value here are
                                    almost certainly wrong.
                                    More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
                                  type: string
                                optional:
                                  description: Specify whether the Secret or its key
                                    must be defined
                                  type: boolean
                              required:
                              - key
                              type: object
                              x-kubernetes-map-type: atomic
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  forcePrecompiled:
                    default: false
                    description: |-
                      ForcePrecompiled specifies if only DOCA-OFED driver precompiled images are allowed
                      If set to false and precompiled image does not exists, DOCA-OFED driver will be compiled on Nodes
                      If set to true and precompiled image does not exists, OFED state will be Error.
                    type: boolean
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  livenessProbe:
                    description: Pod liveness probe settings
                    properties:
                      failureThreshold:
                        description: Minimum consecutive failures for the probe to
                          be considered failed after having succeeded
                        type: integer
                      initialDelaySeconds:
                        description: Number of seconds after the container has started
                          before the probe is initiated
                        type: integer
                      periodSeconds:
                        description: How often (in seconds) to perform the probe
                        type: integer
                      timeoutSeconds:
                        description: Number of seconds after which the probe times
                          out
                        type: integer
                    required:
                    - initialDelaySeconds
                    - periodSeconds
                    type: object
                  readinessProbe:
                    description: Pod readiness probe settings
                    properties:
                      failureThreshold:
                        description: Minimum consecutive failures for the probe to
                          be considered failed after having succeeded
                        type: integer
                      initialDelaySeconds:
                        description: Number of seconds after the container has started
                          before the probe is initiated
                        type: integer
                      periodSeconds:
                        description: How often (in seconds) to perform the probe
                        type: integer
                      timeoutSeconds:
                        description: Number of seconds after which the probe times
                          out
                        type: integer
                    required:
                    - initialDelaySeconds
                    - periodSeconds
                    type: object
                  repoConfig:
                    description: 'Optional: Custom package repository configuration
                      for DOCA-OFED driver container'
                    properties:
                      name:
                        description: Name of the ConfigMap
                        type: string
                    type: object
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  startupProbe:
                    description: Pod startup probe settings
                    properties:
                      failureThreshold:
                        description: Minimum consecutive failures for the probe to
                          be considered failed after having succeeded
                        type: integer
                      initialDelaySeconds:
                        description: Number of seconds after the container has started
                          before the probe is initiated
                        type: integer
                      periodSeconds:
                        description: How often (in seconds) to perform the probe
                        type: integer
                      timeoutSeconds:
                        description: Number of seconds after which the probe times
                          out
                        type: integer
                    required:
                    - initialDelaySeconds
                    - periodSeconds
                    type: object
                  terminationGracePeriodSeconds:
                    default: 300
                    description: |-
                      TerminationGracePeriodSeconds specifies the length of time in seconds
                      to wait before killing the DOCA-OFED driver container pod on termination
                    format: int64
                    minimum: 0
                    type: integer
                  upgradePolicy:
                    description: DOCA-OFED driver auto-upgrade settings
                    properties:
                      autoUpgrade:
                        default: false
                        description: |-
                          AutoUpgrade is a global switch for automatic upgrade feature
                          if set to false all other options are ignored
                        type: boolean
                      drain:
                        description: The configuration for node drain during automatic
                          upgrade
                        properties:
                          deleteEmptyDir:
                            default: false
                            description: |-
                              DeleteEmptyDir indicates if should continue even if there are pods using emptyDir
                              (local data that will be deleted when the node is drained)
                            type: boolean
                          enable:
                            default: true
                            description: Enable indicates if node draining is allowed
                              during upgrade
                            type: boolean
                          force:
                            default: false
                            description: Force indicates if force draining is allowed
                            type: boolean
                          podSelector:
                            description: |-
                              PodSelector specifies a label selector to filter pods on the node that need to be drained
                              For more details on label selectors, see:
                              https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                            type: string
                          timeoutSeconds:
                            default: 300
                            description: TimeoutSecond specifies the length of time
                              in seconds to wait before giving up drain, zero means
                              infinite
                            minimum: 0
                            type: integer
                        type: object
                      maxParallelUpgrades:
                        default: 1
                        description: |-
                          MaxParallelUpgrades indicates how many nodes can be upgraded in parallel
                          0 means no limit, all nodes will be upgraded in parallel
                        minimum: 0
                        type: integer
                      safeLoad:
                        default: false
                        description: SafeLoad turn on safe driver loading (cordon
                          and drain the node before loading the driver)
                        type: boolean
                      waitForCompletion:
                        description: The configuration for waiting on pods completions
                        properties:
                          podSelector:
                            description: |-
                              PodSelector specifies a label selector for the pods to wait for completion
                              For more details on label selectors, see:
                              https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors
                            type: string
                          timeoutSeconds:
                            default: 0
                            description: |-
                              TimeoutSecond specifies the length of time in seconds
                              to wait before giving up on pod termination, zero means infinite
                            minimum: 0
                            type: integer
                        type: object
                    type: object
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                type: object
              rdmaSharedDevicePlugin:
                description: |-
                  RdmaSharedDevicePlugin manages support IB and RoCE HCAs through the Kubernetes device plugin framework.
                  The config field is a json representation of the RDMA shared device plugin configuration.
                  See https://github.com/Mellanox/k8s-rdma-shared-dev-plugin
                properties:
                  config:
                    description: Configuration for the component as a string
                    type: string
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  useCdi:
                    description: |-
                      Enables use of container device interface (CDI)
                      NOTE: NVIDIA Network Operator does not configure container runtime to enable CDI.
                    type: boolean
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                type: object
              sriovDevicePlugin:
                description: |-
                  SriovDevicePlugin manages SRIOV through the Kubernetes device plugin framework.
                  The config field is a json representation of the RDMA shared device plugin configuration.
                  See https://github.com/k8snetworkplumbingwg/sriov-network-device-plugin
                properties:
                  config:
                    description: Configuration for the component as a string
                    type: string
                  containerResources:
                    description: ResourceRequirements describes the compute resource
                      requirements
                    items:
                      description: ResourceRequirements describes the compute resource
                        requirements.
                      properties:
                        limits:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Limits describes the maximum amount of compute resources allowed.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                        name:
                          description: Name of the container the requirements are
                            set for
                          type: string
                        requests:
                          additionalProperties:
                            anyOf:
                            - type: integer
                            - type: string
                            pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$
                            x-kubernetes-int-or-string: true
                          description: |-
                            Requests describes the minimum amount of compute resources required.
                            If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
                            otherwise to an implementation-defined value. Requests cannot exceed Limits.
                            More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
                          type: object
                      required:
                      - name
                      type: object
                    type: array
                  image:
                    description: Name of the image
                    pattern: '[a-zA-Z0-9\\-]+'
                    type: string
                  imagePullSecrets:
                    default: []
                    description: |-
                      ImagePullSecrets is an optional list of references to secrets in the same
                      namespace to use for pulling the image
                    items:
                      type: string
                    type: array
                  repository:
                    description: Address of the registry that stores the image
                    pattern: '[a-zA-Z0-9\\.\\-\\/]+'
                    type: string
                  useCdi:
                    description: |-
                      Enables use of container device interface (CDI)
                      NOTE: NVIDIA Network Operator does not configure container runtime to enable CDI.
                    type: boolean
                  version:
                    description: Version of the image to use
                    type: string
                required:
                - image
                type: object
              tolerations:
                description: 'Optional: Set tolerations'
                items:
                  description: |-
                    The pod this Toleration is attached to tolerates any taint that matches
                    the triple <key,value,effect> using the matching operator <operator>.
                  properties:
                    effect:
                      description: |-
                        Effect indicates the taint effect to match. Empty means match all taint effects.
                        When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.
                      type: string
                    key:
                      description: |-
                        Key is the taint key that the toleration applies to. Empty means match all taint keys.
                        If the key is empty, operator must be Exists; this combination means to match all values and all keys.
                      type: string
                    operator:
                      description: |-
                        Operator represents a key's relationship to the value.
                        Valid operators are Exists and Equal. Defaults to Equal.
                        Exists is equivalent to wildcard for value, so that a pod can
                        tolerate all taints of a particular category.
                      type: string
                    tolerationSeconds:
                      description: |-
                        TolerationSeconds represents the period of time the toleration (which must be
                        of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default,
                        it is not set, which means tolerate the taint forever (do not evict). Zero and
                        negative values will be treated as 0 (evict immediately) by the system.
                      format: int64
                      type: integer
                    value:
                      description: |-
                        Value is the taint value the toleration matches to.
                        If the operator is Exists, the value should be empty, otherwise just a regular string.
                      type: string
                  type: object
                type: array
            type: object
          status:
            description: Defines the observed state of NicNodePolicy
            properties:
              appliedStates:
                description: AppliedStates provide a finer view of the observed state
                items:
                  description: AppliedState defines a finer-grained view of the observed
                    state of NicClusterPolicy
                  properties:
                    message:
                      description: |-
                        Message is a human readable message indicating details about why
                        the state is in this condition
                      type: string
                    name:
                      description: Name of the deployed component this state refers
                        to
                      type: string
                    state:
                      description: The state of the deployed component. ("ready",
                        "notReady", "ignore", "error")
                      enum:
                      - ready
                      - notReady
                      - ignore
                      - error
                      type: string
                  required:
                  - name
                  - state
                  type: object
                type: array
              reason:
                description: Informative string in case the observed state is error
                type: string
              state:
                description: Reflects the current state of the cluster policy
                enum:
                - ignore
                - notReady
                - ready
                - error
                type: string
            required:
            - state
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
`};function Pe(){return it}var un=new Map;function mn(e){return e.replace(/^v/,"").split(/[.-]/).map(n=>/^\d+$/.test(n)?Number(n):0)}function fn(e,n){let t=mn(e),i=mn(n);for(let r=0;r<Math.max(t.length,i.length);r++){let o=(t[r]??0)-(i[r]??0);if(o)return o}return 0}function rt(e,n){let t=/^(.+?)-(v\d+(?:\.\d+)*)(?:-(.+))?\.yaml$/;return Object.keys(Pe()).map(i=>t.exec(i)).filter(i=>!!i&&i[1]===e&&(i[3]??void 0)===n).map(i=>i[2]).sort(fn)}function ot(e,n,t){let i=rt(e,t);if(i.length)return[...i].reverse().find(r=>fn(r,n)<=0)??i[0]}function xe(e,n,t){let i=ot(e,n,t);if(!i)return[];let r=`${e}-${i}${t?`-${t}`:""}.yaml`,o=un.get(r);return o||(o=(0,hn.parseAllDocuments)(Pe()[r]).map(s=>s.toJS()).filter(s=>s?.kind==="CustomResourceDefinition"),un.set(r,o)),structuredClone(o)}function De(e,n){return xe(e,n)}function Ee(e,n){return xe(e,n,"node-feature-discovery")}function gn(e,n,t,i){let r=s=>s.slice(0,63).replace(/-+$/,"");if(i)return r(i);let o=t||n;return r(e.includes(o)?e:`${e}-${o}`)}function re(e,n){return{"helm.sh/chart":`${e.chart}-${e.version}`,"app.kubernetes.io/name":n,"app.kubernetes.io/instance":e.release,"app.kubernetes.io/version":e.appVersion,"app.kubernetes.io/managed-by":"Helm"}}function R(e,n,t,i,r,o,s=1){let a={selector:{matchLabels:r},template:{metadata:{labels:{...r}},spec:o}};return e==="Deployment"?(a.replicas=s,a.strategy={type:"RollingUpdate",rollingUpdate:{maxUnavailable:"25%",maxSurge:"25%"}}):a.updateStrategy={type:"RollingUpdate",rollingUpdate:{maxUnavailable:1}},{apiVersion:"apps/v1",kind:e,metadata:{name:n,namespace:t,labels:i},spec:a}}var Se=e=>e!=null&&e!==""&&!(Array.isArray(e)&&e.length===0)&&!(y(e)&&Object.keys(e).length===0);function oe(e){let n={};for(let t of["tolerations","nodeSelector","affinity","priorityClassName"])Se(e?.[t])&&(n[t]=e[t]);return n}function Ne(e,n,t){return{apiVersion:"v1",kind:"ServiceAccount",metadata:{name:e,namespace:n,labels:t}}}function bn(e,n,t){let i=gn(e.release,"node-feature-discovery",t.nameOverride,t.fullnameOverride),r=e.namespace,o=m=>`${n}/charts/node-feature-discovery/templates/${m}`,s={...re(e,"node-feature-discovery"),"helm.sh/chart":"node-feature-discovery-0.18.3"},a=m=>({"app.kubernetes.io/name":"node-feature-discovery","app.kubernetes.io/instance":e.release,role:m}),d=`${t.image?.repository}:${t.image?.tag??"v0.18.3"}`,p=t.featureGates?.NodeFeatureAPI===!1?[]:["-feature-gates=NodeFeatureAPI=true"],c=t.master?.serviceAccount?.name??i,l=[];t.master?.serviceAccount?.create!==!1&&l.push({source:o("serviceaccount.yaml"),obj:Ne(c,r,s)}),l.push({source:o("nfd-master-conf.yaml"),obj:{apiVersion:"v1",kind:"ConfigMap",metadata:{name:`${i}-master-conf`,namespace:r,labels:s},data:{"nfd-master.conf":(0,G.stringify)(t.master?.config??{})}}}),l.push({source:o("nfd-worker-conf.yaml"),obj:{apiVersion:"v1",kind:"ConfigMap",metadata:{name:`${i}-worker-conf`,namespace:r,labels:s},data:{"nfd-worker.conf":(0,G.stringify)(t.worker?.config??{})}}});let u=(m,f,v={})=>({name:m,image:d,imagePullPolicy:t.image?.pullPolicy??"IfNotPresent",env:[{name:"NODE_NAME",valueFrom:{fieldRef:{fieldPath:"spec.nodeName"}}},...f.length?[{name:"NFD_FLAGS",value:f.join(" ")}]:[]],...v});return l.push({source:o("master.yaml"),obj:R("Deployment",`${i}-master`,r,{...s,role:"master"},a("master"),{serviceAccountName:c,...oe({...t.master,priorityClassName:t.priorityClassName}),containers:[u("master",[...p,"-extra-label-ns=nvidia.com"])]})}),l.push({source:o("worker.yaml"),obj:R("DaemonSet",`${i}-worker`,r,{...s,role:"worker"},a("worker"),{serviceAccountName:t.worker?.serviceAccount?.name??c,...oe({...t.worker,priorityClassName:t.priorityClassName}),containers:[u("worker",p,{volumeMounts:[{name:"nfd-worker-conf",mountPath:"/etc/kubernetes/node-feature-discovery",readOnly:!0}]})],volumes:[{name:"nfd-worker-conf",configMap:{name:`${i}-worker-conf`}}]})}),t.gc?.enable!==!1&&l.push({source:o("nfd-gc.yaml"),obj:R("Deployment",`${i}-gc`,r,{...s,role:"gc"},a("gc"),{serviceAccountName:t.gc?.serviceAccount?.name??c,containers:[u("gc",[])]},Number(t.gc?.replicaCount??1))}),l}function st(e){let n=e.values,t=n.operator??{},i=gn(e.release,e.chart,t.nameOverride,t.fullnameOverride),r=re(e,e.chart),o={"app.kubernetes.io/name":e.chart,"app.kubernetes.io/instance":e.release},s=t.ofedDriver?.initContainer??{},a=[{source:`${e.chart}/templates/serviceaccount.yaml`,obj:Ne(i,e.namespace,r)},{source:`${e.chart}/templates/operator.yaml`,obj:R("Deployment",i,e.namespace,r,{...o,"control-plane":`${e.release}-controller`},{serviceAccountName:i,...oe(t),containers:[{name:e.chart,image:`${t.repository}/${t.image}:${t.tag??e.appVersion}`,imagePullPolicy:"IfNotPresent",env:[{name:"STATE_MANIFEST_BASE",value:"/manifests"},{name:"OFED_INIT_CONTAINER_IMAGE",value:`${s.repository}/${s.image}:${s.version}`},{name:"USE_DTK",value:String(t.useDTK??!0)}],...Se(t.resources)?{resources:t.resources}:{}}]})}],d=De("network-operator",e.version);if(n.nfd?.enabled&&(a.push(...bn(e,e.chart,n["node-feature-discovery"]??{})),d.push(...Ee("network-operator",e.version))),n.nfd?.deployNodeFeatureRules&&a.push({source:`${e.chart}/templates/nodefeaturerules.yaml`,obj:{apiVersion:"nfd.k8s-sigs.io/v1alpha1",kind:"NodeFeatureRule",metadata:{name:"nvidia-nics-rules"},spec:{rules:[{name:"Nvidia NICs PCI",labels:{"pci-15b3.present":"true"},matchFeatures:[{feature:"pci.device",matchExpressions:{vendor:{op:"In",value:["15b3"]},class:{op:"In",value:["0200","0207"]}}}]}]}}}),n.sriovNetworkOperator?.enabled){let p=n["sriov-network-operator"]??{};a.push({source:`${e.chart}/charts/sriov-network-operator/templates/operator.yaml`,obj:R("Deployment","sriov-network-operator",e.namespace,re(e,"sriov-network-operator"),{name:"sriov-network-operator"},{containers:[{name:"sriov-network-operator",image:p.images?.operator??`nvcr.io/nvidia/mellanox/sriov-network-operator:network-operator-${e.version}`}]})})}return{templates:a,crds:d}}var at=["validator","mig","psa","cdi","driver","vgpuManager","kataManager","vfioManager","vgpuDeviceManager","ccManager","toolkit","devicePlugin","dcgm","dcgmExporter","gfd","migManager","nodeStatusExporter","gds","gdrcopy","sandboxWorkloads","sandboxDevicePlugin","kataSandboxDevicePlugin"];function pt(e,n){let t={},i=e.operator??{};t.hostPaths=structuredClone(e.hostPaths??{}),t.operator={...i.defaultRuntime?{defaultRuntime:i.defaultRuntime}:{},runtimeClass:i.runtimeClass??"nvidia",use_ocp_driver_toolkit:i.use_ocp_driver_toolkit??!1,...i.initContainer?{initContainer:structuredClone(i.initContainer)}:{}};let r=e.daemonsets??{};t.daemonsets={labels:r.labels??{},annotations:r.annotations??{},tolerations:r.tolerations??[],priorityClassName:r.priorityClassName,updateStrategy:r.updateStrategy,rollingUpdate:{maxUnavailable:String(r.rollingUpdate?.maxUnavailable??"1")}};for(let o of at){if(!y(e[o]))continue;let s=structuredClone(e[o]);o==="driver"&&y(s.nvidiaDriverCRD)&&(s.useNvidiaDriverCRD=!!s.nvidiaDriverCRD.enabled,delete s.nvidiaDriverCRD),(o==="validator"||o==="nodeStatusExporter")&&!s.version&&(s.version=n),t[o]=s}return t}function ct(e){let n=e.values,t=n.operator??{},i={...re(e,e.chart),"app.kubernetes.io/component":"gpu-operator"},r={"app.kubernetes.io/component":"gpu-operator",app:"gpu-operator"},o=n.driver?.manager??{},s=[{source:`${e.chart}/templates/serviceaccount.yaml`,obj:Ne("gpu-operator",e.namespace,i)},{source:`${e.chart}/templates/operator.yaml`,obj:R("Deployment","gpu-operator",e.namespace,i,r,{serviceAccountName:"gpu-operator",...oe(t),containers:[{name:"gpu-operator",image:`${t.repository}/${t.image}:${t.version??e.appVersion}`,imagePullPolicy:t.imagePullPolicy??"IfNotPresent",env:[{name:"WATCH_NAMESPACE",value:""},{name:"OPERATOR_LOG_LEVEL",value:String(t.logging?.level??"info")},{name:"OPERATOR_NAMESPACE",valueFrom:{fieldRef:{fieldPath:"metadata.namespace"}}},{name:"DRIVER_MANAGER_IMAGE",value:`${o.repository}/${o.image}:${o.version}`}],...Se(t.resources)?{resources:t.resources}:{}}]})},{source:`${e.chart}/templates/clusterpolicy.yaml`,obj:{apiVersion:"nvidia.com/v1",kind:"ClusterPolicy",metadata:{name:"cluster-policy",labels:i},spec:pt(n,e.appVersion)}}],a=De("gpu-operator",e.version);return n.nfd?.enabled&&(s.push(...bn(e,e.chart,n["node-feature-discovery"]??{})),a.push(...Ee("gpu-operator",e.version))),{templates:s,crds:a}}var yn=["Namespace","ServiceAccount","Secret","ConfigMap","CustomResourceDefinition","DaemonSet","Deployment"];function dt(e){let n=t=>{let i="obj"in t?t.obj.kind:t.kind,r=yn.indexOf(i);return r<0?yn.length:r};return e.map((t,i)=>({x:t,i})).sort((t,i)=>n(t.x)-n(i.x)||t.i-i.i).map(t=>t.x)}function F(e){let n=e.chart==="gpu-operator"?ct(e):st(e);return{templates:dt(n.templates),crds:n.crds}}function se(e){return e.map(n=>`---
# Source: ${n.source}
${(0,G.stringify)(n.obj).trimEnd()}
`).join("")}function ae(e){return(0,G.parseAllDocuments)(e).map(n=>Array.isArray(n)?void 0:n.toJS()).filter(n=>y(n)&&typeof n.kind=="string")}var kn="meta.helm.sh/release-name",In="meta.helm.sh/release-namespace",V="app.kubernetes.io/managed-by",Ae=e=>new Promise(n=>setTimeout(n,e)),A=e=>`${e.apiVersion}/${e.kind}/${e.metadata.namespace??""}/${e.metadata.name}`,lt=e=>`${e.kind} "${e.metadata.name}" in namespace "${e.metadata.namespace??""}"`;function pe(e,n){let t=structuredClone(n);return x(t.apiVersion,t.kind).namespaced&&!t.metadata.namespace&&(t.metadata.namespace=e.namespace),t.metadata.labels={...t.metadata.labels??{},[V]:"Helm"},t.metadata.annotations={...t.metadata.annotations??{},[kn]:e.release,[In]:e.namespace},t}async function Pn(e,n,t=6e4){let i=x("apiextensions.k8s.io/v1","CustomResourceDefinition"),r=[];for(let s of n){if(await e.kube.tryGet(i,void 0,s.metadata.name)){e.debug(`CRD ${s.metadata.name} is already present. Skipping.`);continue}try{await e.kube.create(s),r.push(s)}catch(a){if(!(a instanceof S&&a.code===409))throw new Error(`failed to install CRD ${s.metadata.name}: ${a.message}`)}}let o=Date.now()+t;for(let s of r){let a=s.spec,d=a.versions[0].name,p=`/apis/${a.group}/${d}/${a.names.plural}?limit=1`;for(;;){let u=((await e.kube.tryGet(i,void 0,s.metadata.name))?.status?.conditions??[]).some(m=>m.type==="Established"&&m.status==="True");if(u||(u=await e.kube.request("GET",p).then(()=>!0,()=>!1)),u)break;if(Date.now()>o)throw new Error("context deadline exceeded");await Ae(e.pollMs)}}}function ut(e,n){let t=[],i=n.metadata.labels??{},r=n.metadata.annotations??{};i[V]===void 0?t.push(`label validation error: missing key "${V}": must be set to "Helm"`):i[V]!=="Helm"&&t.push(`label validation error: key "${V}" must equal "Helm": current value is "${i[V]}"`);for(let[o,s]of[[kn,e.release],[In,e.namespace]])r[o]===void 0?t.push(`annotation validation error: missing key "${o}": must be set to "${s}"`):r[o]!==s&&t.push(`annotation validation error: key "${o}" must equal "${s}": current value is "${r[o]}"`);return t.length?t.join("; "):void 0}async function je(e,n,t,i){for(let r of n){if(t.has(A(r)))continue;let o=await e.kube.tryGet(x(r.apiVersion,r.kind),r.metadata.namespace,r.metadata.name);if(!o)continue;let s=ut(e,o);if(s)throw new Error(`rendered manifests contain a resource that already exists. Unable to continue with ${i}: ${lt(r)} exists and cannot be imported into the current release: invalid ownership metadata; ${s}`)}}function Me(e,n){return y(n)?y(e)&&Object.entries(n).every(([t,i])=>Me(e[t],i)):Array.isArray(n)?Array.isArray(e)&&e.length===n.length&&n.every((t,i)=>Me(e[i],t)):e===n}function Ce(e,n,t){if(Array.isArray(n)&&Me(t,n))return structuredClone(t);if(!y(n)||!y(t))return structuredClone(n);let i=structuredClone(t);for(let[r,o]of Object.entries(n))i[r]=y(o)&&y(t[r])||Array.isArray(o)?Ce(y(e)?e[r]:void 0,o,t[r]):structuredClone(o);if(y(e))for(let r of Object.keys(e))r in n||delete i[r];return i}var vn=e=>JSON.stringify(e,(n,t)=>y(t)?Object.fromEntries(Object.entries(t).sort(([i],[r])=>i.localeCompare(r))):t);async function mt(e,n,t){for(let i=1;;i++)try{return await ht(e,n,t)}catch(r){if(!(r instanceof S&&r.code===409&&i<5))throw r}}async function ht(e,n,t){let i=x(n.apiVersion,n.kind),r=await e.kube.tryGet(i,n.metadata.namespace,n.metadata.name);if(!r)return await e.kube.create(n),"created";let o=Ce(t,n,r);return o.metadata=Ce(t?.metadata,n.metadata,r.metadata),o.metadata.resourceVersion=r.metadata.resourceVersion,r.status!==void 0&&(o.status=r.status),vn(o)===vn(r)?(e.debug(`Looks like there are no changes for ${n.kind} "${n.metadata.name}"`),"unchanged"):(await e.kube.replace(o),"updated")}async function ce(e,n,t){let i=new Map(t.map(o=>[A(o),o]));for(let o of n)await mt(e,o,i.get(A(o)));let r=new Set(n.map(A));for(let o of[...t].reverse())r.has(A(o))||await qe(e,o)}async function qe(e,n){try{await e.kube.delete(x(n.apiVersion,n.kind),n.metadata.namespace,n.metadata.name)}catch(t){if(!(t instanceof S&&t.code===404))throw t}}function wn(e,n,t){if(e==null)return t;let i=String(e);return i.endsWith("%")?Math.floor(Number(i.slice(0,-1))/100*n):Number(i)||0}function ft(e){let n=e.status??{};if(e.kind==="Deployment"){if(e.spec?.paused)return!0;let t=e.spec?.replicas??1;if(n.observedGeneration!==void 0&&e.metadata.generation!==void 0&&n.observedGeneration<e.metadata.generation)return!1;let i=t-wn(e.spec?.strategy?.rollingUpdate?.maxUnavailable,t,Math.floor(t/4));return n.updatedReplicas!==void 0&&n.updatedReplicas<t?!1:(n.availableReplicas??0)>=i}if(e.kind==="DaemonSet"){if(e.spec?.updateStrategy?.type&&e.spec.updateStrategy.type!=="RollingUpdate")return!0;let t=n.desiredNumberScheduled??0;if((n.updatedNumberScheduled??0)!==t)return!1;let i=t-wn(e.spec?.updateStrategy?.rollingUpdate?.maxUnavailable,t,1);return(n.numberReady??0)>=i}return!0}async function de(e,n,t){let i=n.filter(o=>o.kind==="Deployment"||o.kind==="DaemonSet");e.debug(`beginning wait for ${n.length} resources with timeout of ${Math.round(t/1e3)}s`);let r=Date.now()+t;for(;;){let o;for(let s of i){let a=await e.kube.tryGet(x(s.apiVersion,s.kind),s.metadata.namespace,s.metadata.name);if(!a||!ft(a)){o=s;break}}if(!o)return;if(e.debug(`${o.kind} is not ready: ${o.metadata.namespace}/${o.metadata.name}`),Date.now()+e.pollMs>r)throw new Error("context deadline exceeded");await Ae(e.pollMs)}}async function xn(e,n,t){let i=Date.now()+t;for(;;){let r=!1;for(let o of n)if(await e.kube.tryGet(x(o.apiVersion,o.kind),o.metadata.namespace,o.metadata.name)){r=!0;break}if(!r)return;if(Date.now()+e.pollMs>i)throw new Error("context deadline exceeded");await Ae(e.pollMs)}}var yt=[{name:"wait",kind:"bool"},{name:"timeout",kind:"duration"},{name:"keep-history",kind:"bool"},{name:"ignore-not-found",kind:"bool"},{name:"cascade",kind:"string"},{name:"description",kind:"string"}];async function Te(e,n,t,i){let r=new k(e.kube),o=await r.history(n,t),s=o[o.length-1];if(!s)return!1;if(s.info.status==="uninstalled"){if(i.keepHistory)throw new h(`uninstall: Release not loaded: ${n}: release: not found`);for(let p of o)await r.remove(p);return!0}let a={kube:e.kube,release:n,namespace:t,pollMs:e.pollMs,debug:e.debug};s.info.status="uninstalling",s.info.deleted=K(),await r.update(s);let d=ae(s.manifest).map(p=>pe(a,p));for(let p of[...d].reverse())await qe(a,p);if(i.wait&&await xn(a,d,i.timeoutMs),i.keepHistory)s.info.status="uninstalled",s.info.description="Uninstallation complete",await r.update(s);else for(let p of o)await r.remove(p);return!0}async function Dn(e,n){let{args:t,flags:i}=b(n,yt);if(t.length<1)throw new h(`"helm uninstall" requires at least 1 argument

Usage:  helm uninstall RELEASE_NAME [...] [flags]`);let r=e.namespace;for(let o of t){if(!await Te(e,o,r,{keepHistory:!!i["keep-history"],wait:!!i.wait,timeoutMs:i.timeout??3e5})){if(i["ignore-not-found"])continue;throw new h(`uninstall: Release not loaded: ${o}: release: not found`)}e.out(`release "${o}" uninstalled`)}return 0}var gt=[{name:"install",short:"i",kind:"bool"},{name:"version",kind:"string"},{name:"create-namespace",kind:"bool"},{name:"values",short:"f",kind:"array"},{name:"set",kind:"array"},{name:"set-string",kind:"array"},{name:"wait",kind:"bool"},{name:"timeout",kind:"duration"},{name:"atomic",kind:"bool"},{name:"reuse-values",kind:"bool"},{name:"reset-values",kind:"bool"},{name:"history-max",kind:"int"},{name:"description",kind:"string"},{name:"cleanup-on-fail",kind:"bool"},{name:"devel",kind:"bool"},{name:"no-hooks",kind:"bool"},{name:"output",short:"o",kind:"string"}],bt=/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;function Re(e){if(!bt.test(e)||e.length>53)throw new Error("invalid release name, must match regex ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$ and the length must not be longer than 53")}var vt=L.find(e=>e.kind==="Namespace");function En(e,n,t,i){let r=M(e.config,e.chart.defaults(e.version.version)),o=F({release:e.name,namespace:e.namespace,chart:e.chart.name,version:e.version.version,appVersion:e.version.appVersion,values:r}),s=K();return{name:e.name,info:{first_deployed:t||s,last_deployed:s,deleted:"",description:i==="pending-install"?"Initial install underway":"Preparing upgrade",status:i,notes:`Thank you for installing ${e.chart.name}.
`},chart:{metadata:{name:e.chart.name,home:e.chart.home,version:e.version.version,description:e.chart.description,apiVersion:"v2",appVersion:e.version.appVersion,kubeVersion:e.chart.kubeVersion,type:"application"},lock:null,templates:[],values:e.chart.defaults(e.version.version),schema:null,files:[]},config:e.config,manifest:se(o.templates),version:n,namespace:e.namespace}}function wt(e){let n=M(e.config,e.chart.defaults(e.version.version));return F({release:e.name,namespace:e.namespace,chart:e.chart.name,version:e.version.version,appVersion:e.version.appVersion,values:n}).crds}function Ge(e,n){return{kube:e.kube,release:n.name,namespace:n.namespace,pollMs:e.pollMs,debug:e.debug}}var U=(e,n)=>ae(n.manifest).map(t=>pe(e,t));async function kt(e,n,t,i){let r=new k(e.kube),o=Ge(e,n);await Pn(o,wt(n),6e4);let s=En(n,i,"","pending-install"),a=U(o,s);if(await je(o,a,new Set,"install"),!await e.kube.tryGet(vt,void 0,n.namespace)){if(!t)throw new h(`create: failed to create: namespaces "${n.namespace}" not found`);await e.kube.create({apiVersion:"v1",kind:"Namespace",metadata:{name:n.namespace}})}await r.create(s);try{await ce(o,a,[]),n.wait&&await de(o,a,n.timeoutMs)}catch(p){let c=p.message;if(s.info.status="failed",s.info.description=`Release "${n.name}" failed: ${c}`,n.atomic){e.debug("Install failed and atomic is set, uninstalling release"),await r.update(s);try{await Te(e,n.name,n.namespace,{keepHistory:!1,wait:!0,timeoutMs:n.timeoutMs})}catch(l){throw new h(`an error occurred while uninstalling the release. original install error: ${c}: ${l.message}`)}throw new h(`release ${n.name} failed, and has been uninstalled due to atomic being set: ${c}`)}throw await r.update(s),new h(c)}return s.info.status="deployed",s.info.description=n.description||"Install complete",await r.update(s),s}async function It(e,n,t,i){let r=new k(e.kube),o=Ge(e,n),s=t[t.length-1];if(s.info.status.startsWith("pending-"))throw new h("UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress");let a=[...t].reverse().find(u=>u.info.status==="deployed"),d=a??s,p=En(n,s.version+1,t[0].info.first_deployed,"pending-upgrade"),c=U(o,d),l=U(o,p);await je(o,l,new Set(c.map(A)),"update"),await r.create(p);try{await ce(o,l,c),n.wait&&await de(o,l,n.timeoutMs)}catch(u){let m=u.message;if(p.info.status="failed",p.info.description=`Upgrade "${n.name}" failed: ${m}`,await r.update(p),n.atomic&&a){e.debug("Upgrade failed and atomic is set, rolling back to last successful release");try{await Pt(e,n,a,p)}catch(f){throw new h(`UPGRADE FAILED: an error occurred while rolling back the release. original upgrade error: ${m}: ${f.message}`)}throw new h(`UPGRADE FAILED: release ${n.name} failed, and has been rolled back due to atomic being set: ${m}`)}throw new h(`UPGRADE FAILED: ${m}`)}for(let u of t)u.info.status==="deployed"&&(u.info.status="superseded",await r.update(u));return p.info.status="deployed",p.info.description=n.description||"Upgrade complete",await r.update(p),await xt(r,n,i),p}async function Pt(e,n,t,i){let r=new k(e.kube),o=Ge(e,n),s=K(),a={...structuredClone(t),version:i.version+1,info:{...t.info,last_deployed:s,status:"pending-rollback",description:`Rollback to ${t.version}`}};await r.create(a);let d=U(o,a);await ce(o,d,U(o,i)),await de(o,d,n.timeoutMs);for(let p of await r.history(n.name,n.namespace))p.info.status==="deployed"&&(p.info.status="superseded",await r.update(p));a.info.status="deployed",await r.update(a)}async function xt(e,n,t){if(t<=0)return;let i=await e.history(n.name,n.namespace),r=i.length-t;for(let o of i){if(r<=0)break;o.info.status!=="deployed"&&(await e.remove(o),r--)}}function Dt(e,n,t){if(!t||e["reset-values"])return n;let i=t.config??{};return e["reuse-values"]?Sn(n,i):Object.keys(n).length===0?i:n}function Sn(e,n){let t=structuredClone(n);for(let[i,r]of Object.entries(e)){let o=t[i];t[i]=r&&typeof r=="object"&&!Array.isArray(r)&&o&&typeof o=="object"&&!Array.isArray(o)?Sn(r,o):r}return t}async function Nn(e,n){let{args:t,flags:i}=b(n,gt);if(t.length!==2)throw new h(`"helm upgrade" requires 2 arguments

Usage:  helm upgrade [RELEASE] [CHART] [flags]`);let[r,o]=t;Re(r);let s=e.namespace,d=await new k(e.kube).history(r,s),p=d[d.length-1],c=!p||p.info.status==="uninstalled";if(c&&!i.install)throw new h(`UPGRADE FAILED: "${r}" has no deployed releases`);let{chart:l,version:u}=B(e.paths,o,i.version??"");if(!D[l.name])throw new h(`chart ${l.name} not served`);let m=ee(i.values??[],i.set??[],i["set-string"]??[]),f=!!i.atomic,v={name:r,namespace:s,chart:l,version:u,config:c?m:Dt(i,m,p),atomic:f,wait:!!i.wait||f,timeoutMs:i.timeout??3e5,description:i.description},g;if(c)i.output!=="json"&&i.output!=="yaml"&&e.out(`Release "${r}" does not exist. Installing it now.`),g=await kt(e,v,!!i["create-namespace"],p?p.version+1:1);else{let I=Number(e.env.HELM_MAX_HISTORY),z=i["history-max"]??(Number.isFinite(I)&&e.env.HELM_MAX_HISTORY?I:10);g=await It(e,v,d,z),i.output!=="json"&&i.output!=="yaml"&&e.out(`Release "${r}" has been upgraded. Happy Helming!`)}return i.output==="json"?e.out(JSON.stringify(g)):e.io.stdout(X(g)),0}var Et=[{name:"version",kind:"string"},{name:"values",short:"f",kind:"array"},{name:"set",kind:"array"},{name:"set-string",kind:"array"},{name:"include-crds",kind:"bool"},{name:"skip-crds",kind:"bool"},{name:"devel",kind:"bool"},{name:"kube-version",kind:"string"},{name:"api-versions",short:"a",kind:"array"}];function St(e,n){let t=String(n.spec?.group??"");return t==="nfd.k8s-sigs.io"?`${e}/charts/node-feature-discovery/crds/nfd-api-crds.yaml`:`${e}/crds/${t}_${n.metadata.name.split(".")[0]}.yaml`}function Mn(e,n){let{args:t,flags:i}=b(n,Et);if(t.length<1||t.length>2)throw new h(`"helm template" requires at least 1 argument

Usage:  helm template [NAME] [CHART] [flags]`);let[r,o]=t.length===2?t:["release-name",t[0]];Re(r);let{chart:s,version:a}=B(e.paths,o,i.version??"");if(!D[s.name])throw new h(`chart ${s.name} not served`);let d=ee(i.values??[],i.set??[],i["set-string"]??[]),p=F({release:r,namespace:e.namespace,chart:s.name,version:a.version,appVersion:a.appVersion,values:M(d,s.defaults(a.version))}),c=i["include-crds"]?p.crds.map(l=>({source:St(s.name,l),obj:l})):[];return e.io.stdout(se([...c,...p.templates])),0}var Ve="v3.19.0",Le="3d8990f0836691f0229297773f3524598f46bda6",jn="go1.24.7",Cn={Version:Ve,GitCommit:Le,GitTreeState:"clean",GoVersion:jn},An=`The Kubernetes package manager

Usage:
  helm [command]

Available Commands:
  get         download extended information of a named release
  history     fetch release history
  list        list releases
  repo        add, list, remove, update, and index chart repositories
  status      display the status of the named release
  template    locally render templates
  uninstall   uninstall a release
  upgrade     upgrade a release
  version     print the client version information

Use "helm [command] --help" for more information about a command.
`;function Nt(e){return e.replace(/\{\{-?\s*\.(\w+)\s*-?\}\}/g,(n,t)=>{if(!(t in Cn))throw new h(`template: _:1:2: executing "_" at <.${t}>: can't evaluate field ${t} in type version.BuildInfo`);return Cn[t]})}function Mt(e,n){let{flags:t}=b(n,[{name:"short",kind:"bool"},{name:"template",kind:"string"},{name:"client",short:"c",kind:"bool"}]);return t.template?(e.io.stdout(Nt(t.template)),0):(t.short?e.out(`${Ve}+g${Le.slice(0,7)}`):e.out(`version.BuildInfo{Version:"${Ve}", GitCommit:"${Le}", GitTreeState:"clean", GoVersion:"${jn}"}`),0)}function Ct(e,n){let[t,...i]=n;if(t==="add"){let{args:r,flags:o}=b(i,[{name:"force-update",kind:"bool"},{name:"no-update",kind:"bool"},{name:"username",kind:"string"},{name:"password",kind:"string"},{name:"pass-credentials",kind:"bool"},{name:"insecure-skip-tls-verify",kind:"bool"}]);if(r.length!==2)throw new h(`"helm repo add" requires 2 arguments

Usage:  helm repo add [NAME] [URL] [flags]`);return e.out(We(e.paths,r[0],r[1],!!o["force-update"])),0}if(t==="update"||t==="up"){let{args:r}=b(i,[{name:"fail-on-repo-update-fail",kind:"bool"}]);for(let o of Xe(e.paths,r))e.out(o);return 0}if(t==="list"||t==="ls"){let{flags:r}=b(i,[{name:"output",short:"o",kind:"string"}]),o=$(e.paths);if(o.length===0)throw new h("no repositories to show");if(r.output==="json")e.out(JSON.stringify(o));else{e.out("NAME	URL");for(let s of o)e.out(`${s.name}	${s.url}`)}return 0}throw new h(`unknown command "${t??""}" for "helm repo"`)}function At(e){let n={},t=-1;for(let i=0;i<e.length;i++){let r=e[i];if(r==="--")break;if(!r.startsWith("-")||r==="-"){t<0&&(t=i);continue}let o=r.startsWith("--"),s=r.indexOf("="),a=o?r.slice(2,s>=0?s:void 0):r.slice(1,2),d=ye.find(p=>o?p.name===a:p.short===a);if(d){if(d.kind==="bool"){n[d.name]=s>=0?r.slice(s+1)!=="false":!0;continue}o&&s>=0?n[d.name]=r.slice(s+1):!o&&r.length>2?n[d.name]=r.slice(2).replace(/^=/,""):i+1<e.length&&(n[d.name]=e[++i])}}return t<0?{globals:n,rest:e}:{command:e[t],globals:n,rest:[...e.slice(0,t),...e.slice(t+1)]}}async function tr(e,n,t){let{command:i,globals:r,rest:o}=At(e),s=new W(n,t,r);try{if(!i||o.includes("--help")||o.includes("-h"))return t.stdout(An),0;switch(i){case"version":return Mt(s,o);case"repo":return Ct(s,o);case"upgrade":return await Nn(s,o);case"status":return await pn(s,o);case"get":return await cn(s,o);case"list":case"ls":return await ln(s,o);case"history":case"hist":return await dn(s,o);case"template":return Mn(s,o);case"uninstall":case"delete":case"del":case"un":return await Dn(s,o);default:return t.stderr(`Error: unknown command "${i}" for "helm"
Run 'helm --help' for usage.
`),1}}catch(a){let d=(a instanceof P||a instanceof h,a.message);return t.stderr(`Error: ${d}
`),1}}export{Ye as a,Je as b,et as c,Ve as d,tr as e};
