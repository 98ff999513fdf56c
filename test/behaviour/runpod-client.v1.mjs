// A small v1 client in the shapes REAL-WORLD.md describes: a base constant, a fetch wrapper that
// parses errors in a `!res.ok` branch, list calls used as arrays, a billing sum, a `.then` chain.
// test/behaviour.test.ts migrates it with the engine and runs both versions against stub servers.
const API = 'https://rest.runpod.io/v1';
const headers = { Authorization: `Bearer ${process.env.RUNPOD_API_KEY}`, 'Content-Type': 'application/json' };

async function api(method, path, body) {
  const res = await fetch(`${API}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) {
    const err = await res.json();
    throw new Error(`RunPod ${res.status}: ${err.message}`);
  }
  return res.json();
}

export async function runningPodNames() {
  const pods = await api('GET', '/pods');
  return pods.filter((p) => p.desiredStatus === 'RUNNING').map((p) => p.name);
}

export async function hourlySpend() {
  const res = await fetch(`${API}/pods`, { headers });
  let total = 0;
  for (const pod of await res.json()) total += pod.costPerHr;
  return total;
}

export async function podImage(id) {
  const pod = await api('GET', `/pods/${id}`);
  return `${pod.imageName} (${pod.containerDiskInGb} GB)`;
}

export async function stopPod(id) {
  await api('POST', `/pods/${id}/stop`);
  return 'stopped';
}

export async function renameTemplate(id, name) {
  const tpl = await api('POST', `/templates/${id}/update`, { name });
  return tpl.name;
}

export async function createTemplate(name, image) {
  const tpl = await api('POST', '/templates', { name, imageName: image, containerDiskInGb: 20, isServerless: false });
  return `${tpl.id}: ${tpl.imageName}`;
}

export async function endpointScale(id) {
  const ep = await api('GET', `/endpoints/${id}`);
  return `${ep.workersMin}..${ep.workersMax}`;
}

export async function serverlessSpend(endpointId) {
  const res = await fetch(`${API}/billing/endpoints?endpointId=${endpointId}&bucketSize=day`, { headers });
  const records = await res.json();
  return records.reduce((sum, r) => sum + r.amount, 0);
}

export function templateNames() {
  return fetch(`${API}/templates`, { headers })
    .then((r) => r.json())
    .then((templates) => templates.map((t) => t.name));
}

export async function volumeRegions() {
  const volumes = await api('GET', '/networkvolumes');
  return volumes.map((v) => v.dataCenterId);
}

export async function deletePod(id) {
  try {
    await api('DELETE', `/pods/${id}`);
    return 'deleted';
  } catch (e) {
    return e.message;
  }
}
