# Script mode: writes OUTPUT, a C++ file embedding every file in SHADERS as a raw string literal.
# cmake -DOUTPUT=... -DSHADER_DIR=... -DSHADERS="a;b" -P EmbedShaders.cmake (names relative to SHADER_DIR)
set(body "")
foreach(path ${SHADERS})
  file(RELATIVE_PATH name ${SHADER_DIR} ${path})
  file(READ ${path} text)
  string(APPEND body "    {\"${name}\", R\"murmur_glsl(${text})murmur_glsl\"},\n")
endforeach()
file(WRITE ${OUTPUT}.new "// Generated from shaders/ by cmake/EmbedShaders.cmake; do not edit.\n"
  "#include \"gl/embedded_shaders.hpp\"\n\nnamespace murmur::gl {\n"
  "std::span<const EmbeddedShader> embeddedShaders() {\n"
  "    static const EmbeddedShader shaders[] = {\n${body}    };\n    return shaders;\n}\n}  // namespace murmur::gl\n")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
