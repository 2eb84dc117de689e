import fs from 'node:fs';
const root = process.argv[2];
const { scoreToxicity } = await import(`${root}/plugins/guardrail-toxicity/toxicity.ts`);
const { sharedDefaultModel } = await import(`${root}/plugins/guardrail-toxicity/toxicity.ts`).then((m: any) => m.sharedDefaultModel ? m : import(`${root}/plugins/guardrail-toxicity/index.ts`));
const texts: string[] = [];
const csv = fs.readFileSync('/work/shared/datasets/toxicity/davidson-hate-offensive/labeled_data.csv', 'utf8').split('\n');
for (let i = 1; i < csv.length; i += 5) { const m = csv[i].match(/^(?:[^,]*,){6}(.*)$/); if (m) texts.push(m[1].replace(/^"|"$/g, '')); }
const walk = (v: unknown) => { if (typeof v === 'string') texts.push(v); else if (Array.isArray(v)) v.forEach(walk); else if (v && typeof v === 'object') Object.values(v).forEach(walk); };
walk(JSON.parse(fs.readFileSync(`${root}/plugins/guardrail-toxicity/eval/own-eval.json`, 'utf8')));
walk(JSON.parse(fs.readFileSync(`${root}/plugins/guardrail-toxicity/data/own-train.json`, 'utf8')));
const model = sharedDefaultModel();
const out = texts.map((t) => JSON.stringify(scoreToxicity(t, model)));
const t0 = process.cpuUsage();
for (const t of texts) scoreToxicity(t, model);
const c = process.cpuUsage(t0);
console.error(texts.length, 'texts', ((c.user + c.system) / texts.length).toFixed(1), 'µs CPU/text');
fs.writeFileSync(process.argv[3], out.join('\n'));
