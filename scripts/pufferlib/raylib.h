/* A stand-in for raylib.h: the types and calls PufferLib's pong.h and
   breakout.h name in their render code, which drive.c never runs. */
#pragma once
#include <stdbool.h>
typedef struct { unsigned char r, g, b, a; } Color;
typedef struct { unsigned int id; int width, height, mipmaps, format; } Texture2D;
typedef struct { float x, y, width, height; } Rectangle;
typedef struct { float x, y; } Vector2;
typedef struct { int dummy; } Sound;
#define RED (Color){230,41,55,255}
#define ORANGE (Color){255,161,0,255}
#define YELLOW (Color){253,249,0,255}
#define GREEN (Color){0,228,48,255}
#define SKYBLUE (Color){102,191,255,255}
#define BLUE (Color){0,121,241,255}
#define WHITE (Color){255,255,255,255}
#define BLACK (Color){0,0,0,255}
#define DARKGRAY (Color){80,80,80,255}
#define GRAY (Color){130,130,130,255}
#define KEY_ESCAPE 256
#define KEY_LEFT 263
#define KEY_RIGHT 262
#define KEY_UP 265
#define KEY_DOWN 264
#define KEY_A 65
#define KEY_D 68
#define KEY_W 87
#define KEY_S 83
#define KEY_TAB 258
#define KEY_LEFT_SHIFT 340
static inline void BeginDrawing(void) {}
static inline void EndDrawing(void) {}
static inline void ClearBackground(Color c) { (void)c; }
static inline void CloseWindow(void) {}
static inline void DrawFPS(int x, int y) { (void)x; (void)y; }
static inline void DrawRectangle(int x, int y, int w, int h, Color c) { (void)x;(void)y;(void)w;(void)h;(void)c; }
static inline void DrawText(const char* t, int x, int y, int s, Color c) { (void)t;(void)x;(void)y;(void)s;(void)c; }
static inline void DrawTexturePro(Texture2D t, Rectangle a, Rectangle b, Vector2 o, float r, Color c) { (void)t;(void)a;(void)b;(void)o;(void)r;(void)c; }
static inline void InitWindow(int w, int h, const char* t) { (void)w;(void)h;(void)t; }
static inline bool IsKeyDown(int k) { (void)k; return false; }
static inline bool IsKeyPressed(int k) { (void)k; return false; }
static inline Texture2D LoadTexture(const char* f) { (void)f; Texture2D t = {0}; return t; }
static inline int MeasureText(const char* t, int s) { (void)t; (void)s; return 0; }
static inline void SetTargetFPS(int f) { (void)f; }
static inline const char* TextFormat(const char* f, ...) { return f; }
static inline void ToggleFullscreen(void) {}
static inline bool WindowShouldClose(void) { return false; }
