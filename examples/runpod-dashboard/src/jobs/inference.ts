// Serverless job API: a different product that already says v2. v2-migrate must leave it alone.
const JOBS = 'https://api.runpod.ai/v2';

export async function runSync(endpointId: string, input: unknown) {
  const res = await fetch(`${JOBS}/${endpointId}/runsync`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${process.env.RUNPOD_API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  return res.json();
}

export async function status(endpointId: string, jobId: string) {
  const res = await fetch(`${JOBS}/${endpointId}/status/${jobId}`);
  return res.json();
}
