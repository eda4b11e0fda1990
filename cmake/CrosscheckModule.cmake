# CrosscheckModule.cmake: one library per source folder, with the modules it may use spelled out.
#
#   crosscheck_module(NAME <name> [DIR <folder>] [EXECUTABLE <target>]
#                     [PUBLIC_DEPS <module>...] [DEPS <module>...]
#                     [PUBLIC_LIBS <target>...] [LIBS <target>...])
#
# Builds the static library crosscheck_<name> (or, with EXECUTABLE, that executable) from every .cpp
# in <folder> (default src/<name>) and its detail/ subfolder, globbed with CONFIGURE_DEPENDS: a file
# added inside the folder needs no CMake edit. PUBLIC_DEPS are the modules the folder's public headers
# include (a consumer of the module needs them too), DEPS the ones only its .cpp files and detail/
# headers use; PUBLIC_LIBS and LIBS the same for external targets. A module's detail/ headers are its
# own: no other module includes them.
#
# crosscheck_write_module_manifest(<file>) writes the declared graph as JSON for
# cmake/check_module_boundaries.py, which checks that every include stays within it and that the
# graph has no cycle (ctest module_boundaries).

function(crosscheck_module)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;DIR;EXECUTABLE" "PUBLIC_DEPS;DEPS;PUBLIC_LIBS;LIBS")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_NAME)
    message(FATAL_ERROR "crosscheck_module: NAME <name> [DIR ...] [PUBLIC_DEPS ...] [DEPS ...] "
                        "[PUBLIC_LIBS ...] [LIBS ...] (got: ${ARGV})")
  endif()
  if(NOT arg_DIR)
    set(arg_DIR src/${arg_NAME})
  endif()
  if(NOT IS_DIRECTORY ${PROJECT_SOURCE_DIR}/${arg_DIR})
    message(FATAL_ERROR "crosscheck_module(${arg_NAME}): no folder ${arg_DIR}")
  endif()
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${arg_DIR}/*.cpp
       ${PROJECT_SOURCE_DIR}/${arg_DIR}/detail/*.cpp)

  set(public_links ${arg_PUBLIC_LIBS})
  set(private_links ${arg_LIBS})
  foreach(dep ${arg_PUBLIC_DEPS})
    list(APPEND public_links crosscheck_${dep})
  endforeach()
  foreach(dep ${arg_DEPS})
    list(APPEND private_links crosscheck_${dep})
  endforeach()

  if(arg_EXECUTABLE)
    set(target ${arg_EXECUTABLE})
    set(kind executable)
    add_executable(${target} ${sources})
    target_link_libraries(${target} PRIVATE ${public_links} ${private_links})
  elseif(sources)
    set(target crosscheck_${arg_NAME})
    set(kind library)
    add_library(${target} STATIC ${sources})
    target_link_libraries(${target} PUBLIC ${public_links} PRIVATE ${private_links})
    target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR})
  else()
    # Headers only: everything it uses, its users use.
    set(target crosscheck_${arg_NAME})
    set(kind library)
    add_library(${target} INTERFACE)
    target_link_libraries(${target} INTERFACE ${public_links} ${private_links})
    target_include_directories(${target} INTERFACE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR})
  endif()
  if(sources)
    target_compile_definitions(${target} PRIVATE CROSSCHECK_VERSION="${PROJECT_VERSION}")
  endif()

  set_property(GLOBAL APPEND PROPERTY CROSSCHECK_MODULES ${arg_NAME})
  if(kind STREQUAL "library")
    set_property(GLOBAL APPEND PROPERTY CROSSCHECK_MODULE_LIBRARIES ${target})
  endif()
  set_property(GLOBAL PROPERTY CROSSCHECK_MODULE_${arg_NAME}_DIR ${arg_DIR})
  set_property(GLOBAL PROPERTY CROSSCHECK_MODULE_${arg_NAME}_KIND ${kind})
  set_property(GLOBAL PROPERTY CROSSCHECK_MODULE_${arg_NAME}_PUBLIC ${arg_PUBLIC_DEPS})
  set_property(GLOBAL PROPERTY CROSSCHECK_MODULE_${arg_NAME}_PRIVATE ${arg_DEPS})
endfunction()

# The folder of module <name> (for lists of sources that follow modules, such as fuzz/sources.txt).
function(crosscheck_module_dir name out)
  get_property(dir GLOBAL PROPERTY CROSSCHECK_MODULE_${name}_DIR)
  set(${out} ${dir} PARENT_SCOPE)
endfunction()

function(crosscheck_write_module_manifest file)
  get_property(modules GLOBAL PROPERTY CROSSCHECK_MODULES)
  set(entries "")
  foreach(name ${modules})
    foreach(field DIR KIND PUBLIC PRIVATE)
      get_property(${field} GLOBAL PROPERTY CROSSCHECK_MODULE_${name}_${field})
    endforeach()
    set(public_json "")
    foreach(dep ${PUBLIC})
      list(APPEND public_json "\"${dep}\"")
    endforeach()
    set(private_json "")
    foreach(dep ${PRIVATE})
      list(APPEND private_json "\"${dep}\"")
    endforeach()
    list(JOIN public_json ", " public_json)
    list(JOIN private_json ", " private_json)
    list(APPEND entries "    {\"name\": \"${name}\", \"dir\": \"${DIR}\", \"kind\": \"${KIND}\",
     \"public\": [${public_json}], \"private\": [${private_json}]}")
  endforeach()
  list(JOIN entries ",\n" entries)
  file(CONFIGURE OUTPUT ${file} CONTENT "{
  \"root\": \"${PROJECT_SOURCE_DIR}\",
  \"include_roots\": [\"src\", \".\"],
  \"module_roots\": [\"src\"],
  \"modules\": [
${entries}
  ]
}
" @ONLY)
endfunction()
