// Thin client over the RunPod REST API, shared by the dashboard and the scripts.
export const RUNPOD_REST_URL = process.env.RUNPOD_REST_URL ?? 'https://rest.runpod.io/v1';

const apiKey = () => process.env.RUNPOD_API_KEY ?? '';

export interface Pod {
  id: string;
  name: string;
  desiredStatus: string;
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${RUNPOD_REST_URL}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${apiKey()}`,
      'Content-Type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`RunPod ${method} ${path} failed: ${res.status}`);
  return (await res.json()) as T;
}

export const listPods = () => api<Pod[]>('GET', '/pods');
export const getPod = (podId: string) => api<Pod>('GET', `/pods/${podId}`);
export const stopPod = (podId: string) => api<Pod>('POST', `/pods/${podId}/stop`);
export const startPod = (podId: string) => api<Pod>('POST', `/pods/${podId}/start`);
export const renamePod = (podId: string, name: string) => api<Pod>('POST', `/pods/${podId}/update`, { name });

export const listEndpoints = () => api<unknown[]>('GET', '/endpoints');
export const deleteEndpoint = (endpointId: string) => api<void>('DELETE', `/endpoints/${endpointId}`);
export const listVolumes = () => api<unknown[]>('GET', '/networkvolumes');
export const serverlessSpend = () => api<unknown[]>('GET', '/billing/endpoints?bucketSize=day');
