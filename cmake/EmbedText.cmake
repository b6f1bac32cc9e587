# Script mode: writes OUTPUT, a C++ file defining murmur::SYMBOL() that returns INPUT's text.
# cmake -DINPUT=... -DOUTPUT=... -DSYMBOL=... -P EmbedText.cmake
get_filename_component(name ${INPUT} NAME)
file(READ ${INPUT} text)
file(WRITE ${OUTPUT}.new "// Generated from ${name} by cmake/EmbedText.cmake; do not edit.\n"
  "namespace murmur {\nconst char* ${SYMBOL}() {\n    return R\"murmur_text(${text})murmur_text\";\n}\n}  // namespace murmur\n")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
