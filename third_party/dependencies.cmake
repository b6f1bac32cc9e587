# Glue for system dependencies (all from Debian packages): imported targets, and glad generated
# into the build tree by python3-glad. No third-party source lives in this repository.
find_package(PkgConfig REQUIRED)
find_package(glm REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
pkg_check_modules(STB REQUIRED IMPORTED_TARGET GLOBAL stb)

find_package(OpenGL REQUIRED COMPONENTS OpenGL EGL)
find_package(glfw3 3.3 REQUIRED)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET GLOBAL imgui)

# glad: OpenGL 4.6 core + EGL 1.5 loaders, generated offline (--reproducible skips the network).
find_program(GLAD_EXECUTABLE glad REQUIRED)
set(GLAD_DIR ${CMAKE_BINARY_DIR}/glad)
set(GLAD_OUTPUTS ${GLAD_DIR}/src/gl.c ${GLAD_DIR}/src/egl.c
                   ${GLAD_DIR}/include/glad/gl.h ${GLAD_DIR}/include/glad/egl.h)
add_custom_command(
    OUTPUT ${GLAD_OUTPUTS}
    COMMAND ${GLAD_EXECUTABLE} --quiet --api gl:core=4.6,egl=1.5 --out-path ${GLAD_DIR}
            --reproducible c --loader
    COMMENT "Generating the glad GL 4.6 core / EGL 1.5 loader"
    VERBATIM)
add_library(murmur_glad STATIC ${GLAD_OUTPUTS})
target_include_directories(murmur_glad SYSTEM PUBLIC ${GLAD_DIR}/include)
target_link_libraries(murmur_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(murmur_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
