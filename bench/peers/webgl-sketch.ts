/**
 * Not a peer: a sketch of what Haulview's map could draw with WebGL, measured beside the peers
 * (`BENCH_PEERS_PAGES=webgl-sketch`) to decide whether the map should move to it. One canvas over
 * Leaflet's map, every load's marker and accuracy circle drawn by one instanced draw call each. A pan
 * moves the canvas with the map's pane (no drawing); `moveend` and `zoomend` draw again (positions
 * projected in JavaScript, one upload); a zoom's animation scales the canvas as Leaflet's own renderers
 * do. No clusters, labels, hit testing nor selection: only the drawing's cost.
 */
import L from 'leaflet';
import { markDrawn, runPeer, type PeerLoad } from './peer-page';

const EARTH_CIRCUMFERENCE = 40_075_016.686;
const MARKER_PX = 5;

const VERTEX = `#version 300 es
in vec2 corner;
in vec2 center;
in float radius;
uniform vec2 size;
out vec2 local;
out float r;
void main() {
  local = corner * (radius + 1.0);
  r = radius;
  vec2 px = center + local;
  gl_Position = vec4(px / size * 2.0 - 1.0, 0.0, 1.0);
  gl_Position.y = -gl_Position.y;
}`;
const FRAGMENT = `#version 300 es
precision mediump float;
in vec2 local;
in float r;
uniform vec4 fill;
uniform vec4 stroke;
out vec4 color;
void main() {
  float d = length(local);
  if (d > r + 0.5) discard;
  float edge = smoothstep(r - 1.5, r - 0.5, d);
  vec4 c = mix(fill, stroke, edge);
  c.rgb *= c.a;
  color = c * (1.0 - smoothstep(r - 0.5, r + 0.5, d));
}`;

class PointsGl extends L.Layer {
  private canvas!: HTMLCanvasElement;
  private gl!: WebGL2RenderingContext;
  private program!: WebGLProgram;
  private centers!: WebGLBuffer;
  private radii!: WebGLBuffer;
  private vao!: WebGLVertexArrayObject;
  /** Looked up once: each look-up is a round trip to the GPU process. */
  private at!: {
    size: WebGLUniformLocation | null;
    fill: WebGLUniformLocation | null;
    stroke: WebGLUniformLocation | null;
  };
  private markerRadii = new Float32Array(0);
  /** Web Mercator at zoom 0 (a 256-pixel world), and meters → pixels at zoom 0 per load. */
  private x = new Float64Array(0);
  private y = new Float64Array(0);
  private metersK = new Float64Array(0);
  private accuracy = new Float64Array(0);
  private index = new Map<string, number>();

  setLoads(loads: PeerLoad[]): void {
    const n = loads.length;
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    this.metersK = new Float64Array(n);
    this.accuracy = new Float64Array(n);
    loads.forEach((l, i) => {
      this.index.set(l.id, i);
      this.place(i, l);
    });
  }

  move(moved: PeerLoad[]): void {
    for (const l of moved) {
      const i = this.index.get(l.id);
      if (i !== undefined) this.place(i, l);
    }
    this.draw();
  }

  private place(i: number, l: PeerLoad): void {
    const s = Math.sin((l.lat * Math.PI) / 180);
    this.x[i] = ((l.lon + 180) / 360) * 256;
    this.y[i] = (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * 256;
    this.metersK[i] = 256 / (EARTH_CIRCUMFERENCE * Math.cos((l.lat * Math.PI) / 180));
    this.accuracy[i] = l.accuracy ?? 0;
  }

  override onAdd(map: L.Map): this {
    this.canvas = L.DomUtil.create('canvas', 'leaflet-zoom-animated') as HTMLCanvasElement;
    map.getPanes().overlayPane.appendChild(this.canvas);
    const gl = this.canvas.getContext('webgl2', { premultipliedAlpha: true, antialias: false });
    if (!gl) throw new Error('no WebGL2');
    this.gl = gl;
    const shader = (type: number, text: string) => {
      const s = gl.createShader(type) as WebGLShader;
      gl.shaderSource(s, text);
      gl.compileShader(s);
      return s;
    };
    const program = gl.createProgram();
    gl.attachShader(program, shader(gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(program, shader(gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(program);
    this.program = program;
    this.at = {
      size: gl.getUniformLocation(program, 'size'),
      fill: gl.getUniformLocation(program, 'fill'),
      stroke: gl.getUniformLocation(program, 'stroke'),
    };
    this.vao = gl.createVertexArray();
    gl.bindVertexArray(this.vao);
    const attribute = (name: string, buffer: WebGLBuffer, size: number, divisor: number) => {
      const at = gl.getAttribLocation(program, name);
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.enableVertexAttribArray(at);
      gl.vertexAttribPointer(at, size, gl.FLOAT, false, 0, 0);
      gl.vertexAttribDivisor(at, divisor);
    };
    const corners = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, corners);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
    attribute('corner', corners, 2, 0);
    this.centers = gl.createBuffer();
    attribute('center', this.centers, 2, 1);
    this.radii = gl.createBuffer();
    attribute('radius', this.radii, 1, 1);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    map.on('moveend zoomend viewreset resize', this.draw, this);
    map.on('zoomanim', this.animate, this);
    this.draw();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend zoomend viewreset resize', this.draw, this);
    map.off('zoomanim', this.animate, this);
    this.canvas.remove();
    return this;
  }

  /** As Leaflet's renderers follow a zoom's animation: the canvas scaled about the new view. */
  private animate(e: L.ZoomAnimEvent): void {
    const map = this._map;
    const scale = map.getZoomScale(e.zoom, map.getZoom());
    // Leaflet's own renderers call this internal; its typings leave it out.
    const toNew = (
      map as unknown as { _latLngToNewLayerPoint: (ll: L.LatLng, z: number, c: L.LatLng) => L.Point }
    )._latLngToNewLayerPoint;
    const offset = toNew.call(map, map.containerPointToLatLng([0, 0]), e.zoom, e.center);
    L.DomUtil.setTransform(this.canvas, offset, scale);
  }

  private draw(): void {
    const map = this._map;
    const { gl } = this;
    const size = map.getSize();
    const ratio = window.devicePixelRatio || 1;
    if (this.canvas.width !== size.x * ratio || this.canvas.height !== size.y * ratio) {
      this.canvas.width = size.x * ratio;
      this.canvas.height = size.y * ratio;
      this.canvas.style.width = `${size.x}px`;
      this.canvas.style.height = `${size.y}px`;
    }
    L.DomUtil.setPosition(this.canvas, map.containerPointToLayerPoint([0, 0]));
    const scale = 2 ** map.getZoom();
    const origin = map.project(map.containerPointToLatLng([0, 0]), map.getZoom());
    const n = this.x.length;
    const centers = new Float32Array(n * 2);
    const circles = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      centers[2 * i] = ((this.x[i] as number) * scale - origin.x) * ratio;
      centers[2 * i + 1] = ((this.y[i] as number) * scale - origin.y) * ratio;
      circles[i] = (this.accuracy[i] as number) * (this.metersK[i] as number) * scale * ratio;
    }
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.useProgram(this.program);
    gl.bindVertexArray(this.vao);
    gl.uniform2f(this.at.size, this.canvas.width, this.canvas.height);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.centers);
    gl.bufferData(gl.ARRAY_BUFFER, centers, gl.DYNAMIC_DRAW);
    // The accuracy circles, then the markers over them.
    const { fill, stroke } = this.at;
    gl.uniform4f(fill, 0.1, 0.35, 0.8, 0.12);
    gl.uniform4f(stroke, 0.1, 0.35, 0.8, 0.6);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.radii);
    gl.bufferData(gl.ARRAY_BUFFER, circles, gl.DYNAMIC_DRAW);
    gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, n);
    gl.uniform4f(fill, 0.1, 0.45, 0.9, 1);
    gl.uniform4f(stroke, 1, 1, 1, 1);
    if (this.markerRadii.length !== n) this.markerRadii = new Float32Array(n).fill(MARKER_PX * ratio);
    gl.bufferData(gl.ARRAY_BUFFER, this.markerRadii, gl.DYNAMIC_DRAW);
    gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, n);
    markDrawn(n);
  }
}

const map = L.map('map', { maxZoom: 19 });
const layer = new PointsGl();
void runPeer({
  draw: (loads) => {
    // As Haulview fits its loads (src/web/map/controls/map-view.tsx).
    map.fitBounds(L.latLngBounds(loads.map((l) => [l.lat, l.lon])), { padding: [40, 40], maxZoom: 14 });
    layer.setLoads(loads);
    layer.addTo(map);
  },
  move: (moved) => layer.move(moved),
});
