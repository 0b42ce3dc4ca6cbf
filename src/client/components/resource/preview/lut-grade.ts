/**
 * Grading a photo with a 3D LUT in the browser: the server's table is `size`³ RGB8 triplets over
 * 0–1, red changing fastest, then green, then blue. WebGL2 samples it as a 3D texture (the GPU
 * interpolates); where WebGL2 is missing, the same trilinear lookup runs on the CPU over a 2D canvas.
 */

export interface Lut {
  size: number;
  data: Uint8Array;
}

/** Largest side of the graded picture (a dialog never shows it larger). */
export const GRADE_MAX_SIDE = 1280;

export async function loadLut(url: string, size: number, signal?: AbortSignal): Promise<Lut> {
  const res = await fetch(url, { signal });
  if (!res.ok) throw new Error(`LUT ${url}: HTTP ${res.status}`);
  const data = new Uint8Array(await res.arrayBuffer());
  if (size < 2 || data.length !== size * size * size * 3) throw new Error(`LUT ${url}: ${data.length} bytes for a ${size}³ table`);
  return { size, data };
}

export type Renderer = 'webgl2' | 'canvas';

function fitSize(img: HTMLImageElement): { width: number; height: number } {
  const scale = Math.min(1, GRADE_MAX_SIDE / Math.max(img.naturalWidth, img.naturalHeight));
  return { width: Math.max(1, Math.round(img.naturalWidth * scale)), height: Math.max(1, Math.round(img.naturalHeight * scale)) };
}

const VERTEX = `#version 300 es
in vec2 p;
out vec2 uv;
void main() {
  uv = vec2((p.x + 1.0) * 0.5, (1.0 - p.y) * 0.5);
  gl_Position = vec4(p, 0.0, 1.0);
}`;

const FRAGMENT = `#version 300 es
precision highp float;
precision highp sampler3D;
uniform sampler2D photo;
uniform sampler3D lut;
uniform float size;
in vec2 uv;
out vec4 color;
void main() {
  vec4 c = texture(photo, uv);
  vec3 at = c.rgb * ((size - 1.0) / size) + 0.5 / size;
  color = vec4(texture(lut, at).rgb, c.a);
}`;

function compile(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type);
  if (!shader) throw new Error('WebGL: no shader');
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`WebGL: ${gl.getShaderInfoLog(shader) ?? 'shader failed'}`);
  return shader;
}

/** Grades with WebGL2; false when the browser has no WebGL2 (the caller falls back to the CPU). */
function gradeWebGl(canvas: HTMLCanvasElement, img: HTMLImageElement, lut: Lut): boolean {
  const gl = canvas.getContext('webgl2', { premultipliedAlpha: false, antialias: false, preserveDrawingBuffer: true });
  if (!gl) return false;
  const program = gl.createProgram();
  gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`WebGL: ${gl.getProgramInfoLog(program) ?? 'link failed'}`);
  gl.useProgram(program);

  // One triangle covering the canvas.
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
  const p = gl.getAttribLocation(program, 'p');
  gl.enableVertexAttribArray(p);
  gl.vertexAttribPointer(p, 2, gl.FLOAT, false, 0, 0);

  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, gl.createTexture());
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, img);

  gl.activeTexture(gl.TEXTURE1);
  gl.bindTexture(gl.TEXTURE_3D, gl.createTexture());
  gl.texParameteri(gl.TEXTURE_3D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_3D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  for (const wrap of [gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T, gl.TEXTURE_WRAP_R]) gl.texParameteri(gl.TEXTURE_3D, wrap, gl.CLAMP_TO_EDGE);
  gl.texImage3D(gl.TEXTURE_3D, 0, gl.RGB8, lut.size, lut.size, lut.size, 0, gl.RGB, gl.UNSIGNED_BYTE, lut.data);

  gl.uniform1i(gl.getUniformLocation(program, 'photo'), 0);
  gl.uniform1i(gl.getUniformLocation(program, 'lut'), 1);
  gl.uniform1f(gl.getUniformLocation(program, 'size'), lut.size);
  gl.viewport(0, 0, canvas.width, canvas.height);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  return true;
}

/** The same lookup on the CPU: trilinear interpolation between the table's eight neighbours. */
export function gradePixels(pixels: Uint8ClampedArray, lut: Lut) {
  const { size, data } = lut;
  const max = size - 1;
  const s2 = size * size;
  for (let i = 0; i < pixels.length; i += 4) {
    const r = (pixels[i] / 255) * max;
    const g = (pixels[i + 1] / 255) * max;
    const b = (pixels[i + 2] / 255) * max;
    const r0 = Math.min(max - 1, Math.floor(r));
    const g0 = Math.min(max - 1, Math.floor(g));
    const b0 = Math.min(max - 1, Math.floor(b));
    const fr = r - r0;
    const fg = g - g0;
    const fb = b - b0;
    const base = r0 + g0 * size + b0 * s2;
    for (let c = 0; c < 3; c++) {
      const at = (idx: number) => data[idx * 3 + c];
      const c00 = at(base) * (1 - fr) + at(base + 1) * fr;
      const c10 = at(base + size) * (1 - fr) + at(base + size + 1) * fr;
      const c01 = at(base + s2) * (1 - fr) + at(base + s2 + 1) * fr;
      const c11 = at(base + s2 + size) * (1 - fr) + at(base + s2 + size + 1) * fr;
      const c0 = c00 * (1 - fg) + c10 * fg;
      const c1 = c01 * (1 - fg) + c11 * fg;
      pixels[i + c] = c0 * (1 - fb) + c1 * fb;
    }
  }
}

function gradeCanvas(canvas: HTMLCanvasElement, img: HTMLImageElement, lut: Lut) {
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('No 2D canvas');
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  gradePixels(image.data, lut);
  ctx.putImageData(image, 0, 0);
}

/**
 * `img` graded by `lut`, as a new canvas the size of the photo (a canvas that once had a WebGL
 * context cannot get a 2D one, so a failed WebGL2 attempt leaves its canvas behind).
 * `prefer` 'canvas' skips WebGL2.
 */
export function grade(img: HTMLImageElement, lut: Lut, prefer: Renderer = 'webgl2'): { canvas: HTMLCanvasElement; renderer: Renderer } {
  const { width, height } = fitSize(img);
  const make = () => Object.assign(document.createElement('canvas'), { width, height });
  if (prefer === 'webgl2') {
    const canvas = make();
    try {
      if (gradeWebGl(canvas, img, lut)) return { canvas, renderer: 'webgl2' };
    } catch (err) {
      console.warn('WebGL2 grading failed; grading on the CPU:', err);
    }
  }
  const canvas = make();
  gradeCanvas(canvas, img, lut);
  return { canvas, renderer: 'canvas' };
}
