/**
 * An answer passed on as it is (returned to callers outside the run, handed to a framework, turned into
 * JSON text, printed): the warning's exact words, which name every v1 field v2 changed as `field "…"`
 * (the real-behaviour harness reads them as the fields the tool flagged).
 */
import { describe, expect, it } from 'vitest';
import { migrateSource } from '../src/pipeline/js.js';

const OPTIONS = { bases: { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' } };

function passedOn(source: string): Array<{ ruleId: string; severity: string; line: number; fixable: boolean; message: string }> {
  return migrateSource(source, 'src/runpod.ts', OPTIONS)
    .findings.filter((f) => /can follow here/.test(f.message) && f.ruleId !== 'list-envelope')
    .map(({ ruleId, severity, line, fixable, message }) => ({ ruleId, severity, line, fixable, message }));
}

const HEAD = `const API = 'https://rest.runpod.io/v1';\nconst headers = { Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` };\n`;

describe('an answer passed on as it is', () => {
  it('names every pod field v2 renamed, moved or dropped', () => {
    const source = `${HEAD}export async function pod(id: string) {\n  const res = await fetch(\`\${API}/pods/\${id}\`, { headers });\n  return res.json();\n}\n`;
    expect(passedOn(source)).toEqual([
      {
        ruleId: 'response-field',
        severity: 'warning',
        line: 4,
        fixable: false,
        message:
          'The pod GET /v2/pods/{id} answers leaves what v2-migrate can follow here as it is (it is returned from pod(), which nothing in this run calls, at line 5): whoever reads it now gets the v2 pod, where ' +
          'field "desiredStatus" is "status", field "costPerHr" is "cost", field "adjustedCostPerHr" is "cost", field "imageName" is "image", field "containerDiskInGb" is "disk", ' +
          'field "templateId" is "template", field "containerRegistryAuthId" is "registry", field "lastStartedAt" is "startedAt", field "machine" is gone, field "machineId" is gone, ' +
          'field "publicIp" is under "runtime.ports[].ip", field "portMappings" is under "runtime.ports", field "networkVolume" is under "mounts.network", field "networkVolumeId" is under "mounts.network[].volumeId", field "uptimeInSeconds" is under "runtime.uptime", ' +
          'field "lastStatusChange" is gone, field "memoryInGb" is under "cpu.memory", field "dockerStartCmd" is under "args", field "volumeInGb" is under "mounts.persistent.size", ' +
          'field "volumeMountPath" is under "mounts.persistent.path", field "dockerEntrypoint" is gone, the fields under "gpu" (field "displayName", field "securePrice", field "communityPrice", field "secureSpotPrice", field "communitySpotPrice", field "oneWeekPrice", field "oneMonthPrice", field "threeMonthPrice", field "sixMonthPrice") are at GET /v2/catalog/gpus. Check what reads it, or map it back to the v1 shape here.',
      },
    ]);
  });

  it('speaks of the items of an unwrapped list', () => {
    const source = `${HEAD}export async function show() {\n  const res = await fetch(\`\${API}/endpoints\`, { headers });\n  const endpoints = await res.json();\n  console.log(endpoints);\n}\n`;
    expect(passedOn(source)).toEqual([
      {
        ruleId: 'response-field',
        severity: 'warning',
        line: 4,
        fixable: false,
        message:
          'The serverless endpoints GET /v2/serverless answers leave what v2-migrate can follow here as they are (it is printed by console.log(…), at line 6): whoever reads them now gets v2 serverless endpoints, where ' +
          'field "workersMin" is "workers.min", field "workersMax" is "workers.max", field "idleTimeout" is under "workers.idleTimeout", field "scalerType" is "scaling.type", ' +
          'field "scalerValue" is under "scaling.queueDelay", field "executionTimeoutMs" is "timeout", field "template" is gone, field "templateId" is gone, field "version" is gone, ' +
          'field "workers" is at GET /v2/serverless/{id}/workers, field "gpuTypeIds" is under "gpu.pools", field "networkVolumeIds" is "networkVolumes", field "networkVolumeId" is under "networkVolumes", ' +
          'field "instanceIds" is gone, field "computeType" is under "gpu", field "gpuCount" is under "gpu.count", field "allowedCudaVersions" is under "gpu.allowedCudaVersions", field "minCudaVersion" is under "gpu.minCudaVersion", field "userId" is gone. Check what reads them, or map them back to the v1 shape here.',
      },
    ]);
  });

  it('reports billing records under billing-records', () => {
    const source = `${HEAD}export async function bill() {\n  const res = await fetch(\`\${API}/billing/pods\`, { headers });\n  const records = await res.json();\n  return JSON.stringify(records);\n}\n`;
    expect(passedOn(source)).toEqual([
      {
        ruleId: 'billing-records',
        severity: 'warning',
        line: 4,
        fixable: false,
        message:
          'The pod billing records GET /v2/billing/pods answers leave what v2-migrate can follow here as they are (it is turned into JSON text by JSON.stringify(…), at line 6): whoever reads them now gets v2 pod billing records, where ' +
          'field "amount" is "totalAmount", field "time" is "startTime", field "timeBilledMs" is gone, field "diskSpaceBilledGb" is gone, field "gpuTypeId" is gone. ' +
          'Check what reads them, or map them back to the v1 shape here.',
      },
    ]);
  });

  it('says v1 answered {} where a pod action now answers the pod', () => {
    const source = `${HEAD}export async function stop(id: string) {\n  const res = await fetch(\`\${API}/pods/\${id}/stop\`, { method: 'POST', headers });\n  return res.json();\n}\n`;
    expect(passedOn(source)).toEqual([
      {
        ruleId: 'response-field',
        severity: 'warning',
        line: 4,
        fixable: false,
        message:
          'POST /v2/pods/{id}/action {"action":"stop"} answers the pod, where v1\'s stop answered {}, and this answer leaves what v2-migrate can follow here ' +
          '(it is returned from stop(), which nothing in this run calls, at line 5): whoever reads it now gets a pod, not an empty object. Check what reads it.',
      },
    ]);
  });

  it('is not reported where the answer is read field by field in the run', () => {
    const source = `${HEAD}async function pod(id: string) {\n  const res = await fetch(\`\${API}/pods/\${id}\`, { headers });\n  return res.json();\n}\nexport async function isUp(id: string) {\n  const p = await pod(id);\n  return p.desiredStatus === 'RUNNING';\n}\n`;
    expect(passedOn(source)).toEqual([]);
  });
});
