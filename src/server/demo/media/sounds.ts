import { createRng, type Rng } from '../../prng';

/**
 * Demo sound effects synthesised in code (no recording, no network): each a short 16-bit WAV
 * made from noise, oscillators, envelopes and filters, the way sound designers build whooshes,
 * impacts and risers. The same bytes on every machine (seeded noise).
 */

export const SOUND_SAMPLE_RATE = 44_100;

type Voice = (t: number, i: number, rng: Rng) => number;

interface SoundSpec {
  name: string;
  seconds: number;
  /** One sample in -1..1 at time t (seconds); `i` the sample index. */
  voice: () => Voice;
}

const TAU = 2 * Math.PI;
/** Attack–decay envelope: rises over `attack` s, then falls exponentially with `decay` s time constant. */
const ad = (t: number, attack: number, decay: number) => (t < attack ? t / attack : Math.exp(-(t - attack) / decay));
/** A smooth bump over [0, length]: the loudness shape of a pass-by. */
const bump = (t: number, length: number, peakAt = 0.5) => {
  const x = Math.min(1, Math.max(0, t / length));
  return x < peakAt ? Math.sin((x / peakAt) * (Math.PI / 2)) ** 2 : Math.cos(((x - peakAt) / (1 - peakAt)) * (Math.PI / 2)) ** 2;
};

/** A resonant band-pass (state-variable filter) whose centre moves: the heart of a whoosh. */
function sweptBandPass(center: (t: number) => number, q: number): (x: number, t: number) => number {
  let low = 0;
  let band = 0;
  return (x, t) => {
    const f = 2 * Math.sin((Math.PI * Math.min(center(t), SOUND_SAMPLE_RATE / 6)) / SOUND_SAMPLE_RATE);
    const high = x - low - band / q;
    band += f * high;
    low += f * band;
    return band;
  };
}

function onePoleLowPass(cutoff: number): (x: number) => number {
  const a = Math.exp((-TAU * cutoff) / SOUND_SAMPLE_RATE);
  let y = 0;
  return (x) => (y = (1 - a) * x + a * y);
}

/** A sine whose frequency follows `freq(t)` (phase accumulated, so sweeps stay smooth). */
function sweep(freq: (t: number) => number): (t: number) => number {
  let phase = 0;
  return (t) => {
    phase += (TAU * freq(t)) / SOUND_SAMPLE_RATE;
    return Math.sin(phase);
  };
}

const noise = (rng: Rng) => rng.next() * 2 - 1;

export const SOUNDS: SoundSpec[] = [
  {
    name: 'Whoosh',
    seconds: 1.4,
    voice: () => {
      const bp = sweptBandPass((t) => 300 + 2600 * bump(t, 1.4, 0.45), 2.5);
      return (t, _i, rng) => 1.6 * bp(noise(rng), t) * bump(t, 1.4, 0.45);
    },
  },
  {
    name: 'Fast Swoosh',
    seconds: 0.6,
    voice: () => {
      const bp = sweptBandPass((t) => 600 + 5000 * (t / 0.6), 3);
      return (t, _i, rng) => 1.8 * bp(noise(rng), t) * bump(t, 0.6, 0.3);
    },
  },
  {
    name: 'Cinematic Impact',
    seconds: 2.5,
    voice: () => {
      const body = sweep((t) => 38 + 90 * Math.exp(-t * 14));
      const lp = onePoleLowPass(900);
      return (t, _i, rng) => 0.9 * body(t) * ad(t, 0.004, 0.55) + 0.6 * lp(noise(rng)) * ad(t, 0.001, 0.09);
    },
  },
  {
    name: 'Deep Boom',
    seconds: 3,
    voice: () => {
      const body = sweep((t) => 30 + 50 * Math.exp(-t * 6));
      return (t) => Math.tanh(2.5 * body(t) * ad(t, 0.01, 0.9)) * 0.8;
    },
  },
  {
    name: 'Tension Riser',
    seconds: 4,
    voice: () => {
      const tone = sweep((t) => 110 * 2 ** ((t / 4) * 3));
      const bp = sweptBandPass((t) => 400 + 6000 * (t / 4) ** 2, 4);
      return (t, _i, rng) => ((t / 4) ** 1.5) * (0.45 * tone(t) + 0.9 * bp(noise(rng), t)) * (t > 3.95 ? (4 - t) / 0.05 : 1);
    },
  },
  {
    name: 'Reverse Swell',
    seconds: 2.2,
    voice: () => {
      const a = sweep(() => 220);
      const b = sweep(() => 330.5);
      const c = sweep(() => 440.8);
      return (t) => ((t / 2.2) ** 3) * 0.35 * (a(t) + b(t) + c(t)) * (t > 2.17 ? (2.2 - t) / 0.03 : 1);
    },
  },
  {
    name: 'UI Click',
    seconds: 0.12,
    voice: () => {
      const tone = sweep((t) => 2400 - 8000 * t);
      return (t, _i, rng) => (0.7 * tone(t) + 0.3 * noise(rng)) * ad(t, 0.0005, 0.012);
    },
  },
  {
    name: 'Soft Pop',
    seconds: 0.3,
    voice: () => {
      const tone = sweep((t) => 180 + 900 * Math.exp(-t * 40));
      return (t) => 0.9 * tone(t) * ad(t, 0.002, 0.05);
    },
  },
  {
    name: 'Notification Chime',
    seconds: 1.6,
    voice: () => {
      const a = sweep(() => 987.77);
      const b = sweep(() => 1318.51);
      return (t) => 0.45 * a(t) * ad(t, 0.003, 0.5) + (t > 0.12 ? 0.45 * b(t) * ad(t - 0.12, 0.003, 0.6) : 0);
    },
  },
  {
    name: 'Laser Zap',
    seconds: 0.5,
    voice: () => {
      const tone = sweep((t) => 3200 * Math.exp(-t * 9) + 120);
      return (t) => 0.7 * Math.sign(tone(t)) * ad(t, 0.002, 0.15) * 0.6;
    },
  },
  {
    name: 'Glitch Burst',
    seconds: 0.8,
    voice: () => {
      let held = 0;
      return (t, i, rng) => {
        // Sample-and-hold noise at a stepping rate: digital crunch.
        const step = [40, 300, 90, 800, 25][Math.floor(t * 10) % 5];
        if (i % step === 0) held = noise(rng);
        return held * 0.6 * (Math.floor(t * 24) % 3 === 0 ? 0.2 : 1) * ad(t, 0.001, 0.5);
      };
    },
  },
  {
    name: 'Camera Shutter',
    seconds: 0.35,
    voice: () => {
      const bp = sweptBandPass(() => 3500, 1.5);
      return (t, _i, rng) => 1.5 * bp(noise(rng), t) * (ad(t, 0.0005, 0.015) + (t > 0.09 ? 0.8 * ad(t - 0.09, 0.0005, 0.02) : 0));
    },
  },
  {
    name: 'Heartbeat',
    seconds: 2,
    voice: () => {
      const body = sweep(() => 55);
      const beat = (t: number) => {
        const at = t % 1;
        return ad(at, 0.005, 0.07) + (at > 0.22 ? 0.7 * ad(at - 0.22, 0.005, 0.08) : 0);
      };
      return (t) => 0.9 * body(t) * beat(t);
    },
  },
  {
    name: 'Wind Ambience',
    seconds: 4,
    voice: () => {
      const bp = sweptBandPass((t) => 500 + 250 * Math.sin(TAU * 0.3 * t) + 120 * Math.sin(TAU * 1.1 * t), 1.2);
      return (t, _i, rng) => 0.8 * bp(noise(rng), t) * (0.6 + 0.4 * Math.sin(TAU * 0.25 * t)) * Math.min(1, t / 0.3, (4 - t) / 0.3);
    },
  },
];

/** A 16-bit PCM WAV of `samples` (-1..1, clipped) at SOUND_SAMPLE_RATE, mono. */
export function wavFile(samples: Float32Array): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i])) * 32767), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(SOUND_SAMPLE_RATE, 24);
  header.writeUInt32LE(SOUND_SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Renders one sound: its samples, peak-normalised to -1 dBFS so every demo sound is at full level. */
export function renderSound(spec: SoundSpec, seed = 1): Float32Array {
  const rng = createRng(seed);
  const voice = spec.voice();
  const samples = new Float32Array(Math.round(spec.seconds * SOUND_SAMPLE_RATE));
  let peak = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = voice(i / SOUND_SAMPLE_RATE, i, rng);
    samples[i] = Number.isFinite(v) ? v : 0;
    peak = Math.max(peak, Math.abs(samples[i]));
  }
  const gain = peak > 0 ? 10 ** (-1 / 20) / peak : 0;
  for (let i = 0; i < samples.length; i++) samples[i] *= gain;
  return samples;
}

export function demoSounds(): { name: string; file: string; data: Buffer }[] {
  return SOUNDS.map((spec, i) => ({
    name: spec.name,
    file: `${spec.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.wav`,
    data: wavFile(renderSound(spec, i + 1)),
  }));
}
