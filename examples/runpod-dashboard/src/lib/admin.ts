import axios from 'axios';

const http = axios.create({
  baseURL: 'https://rest.runpod.io/v1',
  headers: { Authorization: `Bearer ${process.env.RUNPOD_API_KEY}` },
});

export async function restartPod(podId: string) {
  const { data } = await http.post(`/pods/${podId}/restart`);
  return data;
}

export async function scaleEndpoint(endpointId: string, workersMax: number) {
  const { data } = await http.post(`/endpoints/${endpointId}/update`, { workersMax });
  return data;
}

export async function registries() {
  const res = await http.get('/containerregistryauth');
  return res.data;
}

/** Used by the ops scripts: the base comes from the caller. */
export class TemplateAdmin {
  constructor(private readonly baseUrl: string, private readonly key: string) {}

  private async call(path: string, init: RequestInit = {}) {
    const res = await fetch(`${this.baseUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${this.key}`, 'Content-Type': 'application/json' },
    });
    return res.json();
  }

  remove(templateId: string) {
    return this.call(`/templates/${templateId}`, { method: 'DELETE' });
  }

  rename(templateId: string, name: string) {
    return this.call(`/templates/${templateId}/update`, { method: 'POST', body: JSON.stringify({ name }) });
  }
}

export const templates = new TemplateAdmin('https://rest.runpod.io/v1', process.env.RUNPOD_API_KEY ?? '');
